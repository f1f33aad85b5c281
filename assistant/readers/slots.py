"""Every input a question can state, read from text whose model and GPU names are already masked.

Each reader returns {Request field: value} for what it found; English cues are word-bounded
(`w(...)`: no letter or digit on either side), so 'rent' never fires inside 'concurrent'.
"""
from __future__ import annotations

import re

from assistant.readers.numbers import (CN_COUNT, EN_WORDS, LEN, MAG, NUM, TIME_UNIT, duration_hours, length,
                                       magnitude, number, to_number)
from tools.formats import BARE_QUANT_PATTERN, NOT_A_QUARTER, bare_quant


def w(pattern: str) -> str:
    """`pattern` with no ASCII letter or digit directly before or after it."""
    return rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])"


_RECURRING = re.compile(r"每(?:个)?(月|周|星期|天)|" + w(r"(?:every|per|a) (month|week|day)|(month|week)ly|(dai)ly"))


def recurring_hours(text: str) -> float | None:
    """The hours of the period a recurring job repeats over ('每月训一次' -> 730, 'every week' -> 168, 'daily' -> 24), or
    None when the message names no such period."""
    m = _RECURRING.search(text)
    if not m:
        return None
    unit = next(g for g in m.groups() if g)
    return duration_hours(1, "day" if unit == "dai" else unit)


def has(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


_CN_COUNT = CN_COUNT
# 'w/o offload', 'not lora', '不支持bf16', 'no ZeRO/offload', 'neither LoRA nor QLoRA', '不用 ZeRO 和 offload': named
# things the user does NOT use. The negation reaches over a list joined by '/', 'or', 'nor', '、', '或', '和' (never over a
# comma, 'no offload, seq 4096', nor an English 'and', 'no offload and ZeRO-3', which read as a rule and a choice).
NEGATOR = (r"(?:\bw/o|\bwithout|\bno|\bnot|\bnever|\bneither|\bdon'?t use|\bdo not use|\bdisabl\w*|\bturn(?:ed)? off|"
           r"\bnot using|不开|不用|不要|不能|关掉|关闭|不支持|没有|没开|不是|不做|不加|非|无需|无|不)")
NEGATABLE = (r"(?:cpu[\s-]*|nvme[\s-]*)?offload\w*|q?lora|bf16|fp16|fp8|int8|int4|nf4|4[\s-]?bit|8[\s-]?bit|"
             r"zero(?:[\s_-]*(?:stage)?[\s_-]*[0-3])?|fsdp|deepspeed|quanti[sz]\w*|量化|卸载")
_NEG_JOIN = r"(?:\s*(?:/|\bor\b|\bnor\b|、|或者?|和|也不)\s*|\s+)"  # ('without deepspeed cpu offload': a compound too)
_NEGATED = (NEGATOR + r"\s*(?:the\s+|a\s+|any\s+)?(?:" + NEGATABLE + r")(?:" + _NEG_JOIN + r"(?:the\s+|any\s+)?(?:"
            + NEGATABLE + r"))*(?![a-z0-9])")


def negated_spans(text: str) -> list[str]:
    """Each negated mention, lists included: 'no ZeRO/offload' -> ['no ZeRO/offload']."""
    return [m.group(0) for m in re.finditer(_NEGATED, text)]


# 'q1: does it fit? q2: wall clock?': numbered questions where a clause starts, not quant levels (masked by the reader,
# same length, so positions do not move)
QUESTION_MARKER = r"(?:(?<=^)|(?<=[\s.?!？。;；,，]))q\d\s*[:：)）](?=\s|$)"


def negates(term: str, text: str) -> bool:
    """Whether `term` (a pattern) is named inside a negation: negates('offload', 'no ZeRO/offload') is True; a failure
    said before it ('mine OOMs w/o offload') is what happens without it, not a rule against it."""
    return any(re.search(term, m.group(0)) for m in re.finditer(_NEGATED, text)
               if not re.search(r"(?:oom\w*|crash\w*|fail\w*|die\w*|dies|爆显存|爆了|会爆|挂了?)\s*$", text[:m.start()]))


def affirmed(pattern: str, text: str) -> bool:
    """A match of `pattern` that no negator governs: affirmed(RENT_CUE, 'buying, not renting') is False, and so is
    '不租', '而不是租', 'rather than rent', 'instead of renting'."""
    for m in re.finditer(pattern, text):
        before = text[max(0, m.start() - 14):m.start()]
        if not re.search(r"(?:" + NEGATOR + r"|\brather than|\binstead of|而不是|而非|不想|不打算|不考虑|不)"
                         r"\s*(?:the\s+|a\s+|to\s+)?$", before):
            return True
    return False


def unnegated(text: str) -> str:
    """The text with negated mentions blanked ('mine OOMs w/o offload' names no offload)."""
    return re.sub(_NEGATED, lambda m: " " * len(m.group(0)), text)
_COUNT_WORD = "|".join(sorted((re.escape(k) for k in EN_WORDS), key=len, reverse=True))


_NODE = r"(?:台|个节点|个机器|台机器|台服务器|机(?!器)|" + w(r"nodes?|servers?|machines?|boxes|hosts?|boxen") + ")"
_CARD = r"(?:张|块(?=\s*(?:显卡|卡|gpu|[a-z]))|卡|" + w(r"gpus?|cards?") + ")"
_ANY = rf"(\d+|{_CN_COUNT}|{_COUNT_WORD})"


def nodes(text: str) -> dict:
    """Servers x GPUs each: '两台机器，每台8张', '2 servers × 8 GPUs', 'two boxes with eight A100s each',
    '3 nodes of 8', 'two 8-GPU nodes', '三机24卡'."""
    pats = [
        (rf"{_ANY}\s*{_NODE}[^0-9一两二三四五六七八九十。；;?？\n]{{0,24}}?(?:每台|每个|每一台|各|each with|each has|per node|"
         rf"per server|of|with|×|x|\*)\s*(?:机器|服务器|节点)?\s*(?:有|装|插|配)?\s*{_ANY}"
         rf"(?!\s*[x×*]\s*\d+\s*g)\s*(?:张|块|卡|-?\s*gpus?|cards?|x|×)?",
         "nodes_first"),  # (not across a line, and not a NIC's '每台 4 x 200Gb')
        (rf"{_ANY}\s*{_NODE}[^0-9一两二三四五六七八九十。；;?？\n]{{0,24}}?(?:,|，)\s*(?:每台|每个)?\s*{_ANY}"
         rf"\s*(?:张|块|卡|-?\s*gpus?|cards?)",
         "nodes_first"),  # ('2 台，每台 8 卡', '2 nodes, 8 GPUs': after a comma the count must name its GPUs: '(2 nodes),
        # 3 epochs' is no 3-GPU node)
        (rf"{_ANY}\s*{_NODE}\s*(?:with|of)?\s*{_ANY}\s*(?:x\s*)?(?:[a-z]*\s*)?(?:[a-z0-9]+s?)?\s*each", "nodes_first"),
        (rf"每台\s*(?:机器|服务器)?\s*(?:有|装|插)?\s*{_ANY}\s*(?:张|块|卡).{{0,8}}?{_ANY}\s*台", "per_first"),
        (rf"{_ANY}\s*(?:x\s*)?{_ANY}\s*-?\s*(?:gpu|卡)\s*{_NODE}", "nodes_first"),
        (rf"{_ANY}\s*机\s*(\d+)\s*卡", "total"),
    ]
    for pattern, kind in pats:
        m = re.search(pattern, text)
        if not m:
            continue
        a, b = to_number(m.group(1)), to_number(m.group(2))
        if not a or not b:
            continue
        if kind == "total":
            return {"num_gpus": int(b), "gpus_per_node": int(b // a), "nodes": int(a)} if b % a == 0 else {}
        nodes_, per = (a, b) if kind == "nodes_first" else (b, a)
        if 1 <= per <= 16 and nodes_ >= 1:
            return {"num_gpus": int(nodes_ * per), "gpus_per_node": int(per), "nodes": int(nodes_)}
    return {}


def gpu_count(text: str) -> dict:
    """Counts not attached to a GPU name: '8卡', '8 GPUs', '8-GPU', '4 cards', 'dual', '单卡', '2048 of them',
    '千卡' (a thousand), '万卡集群'."""
    m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?|[一两二三四五六七八九十])?\s*(百|千|万)\s*(?:张|块)?\s*卡(?!\s*(?:时|·时|小时))", text) or \
        re.search(w(r"(\d+(?:\.\d+)?|a|one|several)?\s*(thousand|hundred|k)[\s-]*(?:gpus?|cards?)"), text)
    if m:
        head = to_number(m.group(1)) if m.group(1) and m.group(1) not in ("a", "one", "several") else 1
        unit = {"百": 100, "千": 1000, "万": 10000, "hundred": 100, "thousand": 1000, "k": 1000}[m.group(2)]
        if head and 1 <= head * unit <= 100_000:
            return {"num_gpus": int(head * unit)}
    m = re.search(r"(?<![a-z\d.×$¥])(\d+)\s*-?\s*" + _CARD + r"(?![\s-]*(?:时|·时|hours?|hrs?|小时)(?![a-z]))", text)
    # (not the digits of a name, 'z9000 gpu'; nor GPU-hours, '500 卡时', '200 GPU-hours')
    if m and 0 <= int(m.group(1)) <= 100_000:
        return {"num_gpus": int(m.group(1))}
    m = next((x for x in re.finditer(rf"(单|双|四|八|{_CN_COUNT})\s*(?:张|块(?=\s*(?:显?卡|gpu|[a-z0-9]|[，,。;；)）?？]|$))|卡)(?!时|钱)",
                                     text)  # ('两块业务': two workloads, not two cards)
              if not (x.group(1) == "一" and re.search(r"\d\s*(?:万|千|k|w|元|块|美元|刀)?\s*(?:钱|左右|上下)?\s*$",
                                                     text[max(0, x.start() - 12):x.start()]))), None)
    # ('5500 一张': a price per card, not a count of one)
    if m and to_number(m.group(1)):
        return {"num_gpus": int(to_number(m.group(1)))}
    m = re.search(w(r"(\d+(?:\.\d+)?)\s*(million|m|billion)\s+(?:[a-z0-9-]+\s+)?(?:gpus?|cards?|h100s?|a100s?|h200s?|b200s?)")
                  + r"(?![\s-]*(?:hours?|hrs?|days?|小时|卡时))", text)
    if m:  # '10 million H100s': read as written, so the answer can say it is out of range
        return {"num_gpus": int(float(m.group(1)) * (1e9 if m.group(2) == "billion" else 1e6))}
    m = re.search(w(rf"({_COUNT_WORD})\s+(?:gpus?|cards?)"), text) or re.search(r"(\d+)\s+of them", text)
    if m:
        return {"num_gpus": int(to_number(m.group(1)))}
    m = re.search(w(r"(one|1|two|2|four|4|a single|just one|only one)\s+of\s+(?:those|these|them|the|our|the same)"
                    r"(?:\s+\w+)?(?:\s+(?:gpus?|cards?|h100s?|a100s?|h200s?|4090s?|3090s?))?") +
                  r"|其中\s*(一|两|二|四|1|2|4)\s*(?:张|块)", text)
    if m:  # 'on one of those GPUs', '其中一张': a part of the cards named earlier
        word = (m.group(1) or m.group(2)).replace("a single", "one").replace("just one", "one").replace("only one", "one")
        return {"num_gpus": int(to_number(word) or {"one": 1, "two": 2, "four": 4}.get(word, 1))}
    return {}


def model_size(text: str) -> tuple[str | None, str | None]:
    """A bare parameter count ('a 70B model', '7b', '700亿参数', '1.5B') as '70b'; (size, as written)."""
    m = re.search(r"([零一二两三四五六七八九十百千]+)\s*(亿|千亿)\s*(?:参数|params?|的模型|模型)", text)
    if m:
        v = number(m.group(1))
        if v:
            return f"{magnitude(v, m.group(2)) / 1e9:g}b", m.group(0)
    for m in re.finditer(r"(?<![a-z0-9.x×])(\d+(?:\.\d+)?)\s*(b|billion|亿|千亿|t|trillion|万亿)(?![a-z0-9])"
                         r"(?=\s*(?:[-\s]?param\w*|参数|的?模型|model|dense|moe|llm)|(?![\s-]*(?:t\b|trillion|万亿)))"
                         r"(?!\s*(?:个\s*)?(?:的\s*)?(?:输入|输出|input|output|prompt|generated|训练|预训练|文本)?\s*(?:tokens?|词元|token))"
                         r"(?!\s*(?:的)?(?:数据|语料|条))", text):
        if m.group(2) in ("t", "trillion", "万亿") and not re.match(r"\s*(?:[-\s]?param\w*|参数|的?模型|model|dense|moe|llm)",
                                                                  text[m.end():]):
            continue  # '1T tokens' / '2T' alone is a dataset; '1T params', '1T model' is a model
        if m.group(2) in ("亿", "千亿", "万亿") and re.search(r"(?:数据|语料|token|tokens|样本|训练集|数据集|文本|条)(?:量)?\s*"
                                                          r"(?:大概|大约|约|差不多|有|是|为|共|总共)?\s*$",
                                                          text[max(0, m.start() - 12):m.start()]):
            continue  # ('数据大概 10 亿': an amount of data, not a model of 1B)
        if m.group(2) in ("亿", "千亿", "万亿") and not re.match(r"\s*(?:[-\s]?param\w*|参数|的?模型|model)", text[m.end():]) \
                and (re.search(r"(?:输入|输出|input|output|prompt|每天|每日|一天|每月|daily|a day|per day)\s*(?:大概|大约|约|有|是)?\s*$",
                               text[max(0, m.start() - 10):m.start()]) or re.search(r"token", text[m.end():m.end() + 24])):
            continue  # ('每天 5 亿 token（输入 4 亿，输出 1 亿）': a volume of tokens, not a model of 0.4B)
        v = float(m.group(1)) * {"b": 1e9, "billion": 1e9, "亿": 1e8, "千亿": 1e11, "t": 1e12, "trillion": 1e12, "万亿": 1e12}[m.group(2)]
        if 1e7 <= v <= 1e16:
            named = re.search(r"([a-z][a-z0-9.]*(?:[-_][a-z0-9.]+)*)[-_]$", text[max(0, m.start() - 24):m.start()])
            return f"{v / 1e9:g}b", (named.group(0) if named else "") + m.group(0)
    return None, None


# Models that think before they answer, by the names people use: DeepSeek-R1 and its distills (arXiv 2501.12948),
# QwQ (Qwen blog, 2025-03-06), Qwen3 in its default thinking mode (Qwen3 model cards; the -Instruct-2507 releases and
# Qwen3-Coder do not think), gpt-oss (OpenAI model card, 2025-08-05: reasoning effort low/medium/high); plus the words for the mode.
REASONING = re.compile(r"(?<![a-z0-9])(?:r1|deepseek[\s-]?r1|qwq|qwen3(?![\w.-]*(?:instruct|coder))(?![\s-]*coder)|gpt[\s-]?oss|"
                       r"thinking|推理模型|思考模式)"
                       r"(?![a-z0-9])")

_METHOD_WORDS = {"qlora": r"q[\s-]?lora", "lora": r"(?<![a-z0-9q])lora(?![a-z0-9])",
                 "full": r"full[\s-]*(?:fine[\s-]*tun\w*|ft|param\w*|sft)|全参|全量"}
_TRIED = r"(?:tried|already (?:did|ran|used)|used to (?:do|run)|did|试过|试了|用过|做过|跑过)\s*(?:a |an |the |了|过)?\s*"
_DROPPED = (r"(?:\w+\s*){0,3}?(?:plateau\w*|didn'?t (?:work|help)|did not (?:work|help)|wasn'?t enough|not enough|"
            r"fell short|stopped improving|underperform\w*|no good|failed|效果(?:不好|一般|不行|不够|差)|不够|不行|没用|提不上去|卡住)")


def _tried_and_dropped(m: str, text: str) -> bool:
    """A method the user already tried and gave up on ('tried LoRA, it plateaued', 'LoRA 试过了效果不好'): context,
    not an option."""
    word = _METHOD_WORDS[m]
    return bool(re.search(_TRIED + r"(?:" + word + r")", text) or re.search(
        r"(?:" + word + r")\s*(?:[,，]?\s*(?:it|which|that|but it|but)?\s*)?(?:already\s*)?(?:试过了?|也试过|用过了?)?[,，]?\s*"
        + _DROPPED, text))


def method(text: str) -> dict:
    """Fine-tune method(s) named, pre-training, or inference."""
    text = unnegated(text)
    found = []
    if has(w(r"q[\s-]?lora") + r"|" + w(r"4[\s-]?bit.{0,10}lora|lora.{0,12}4[\s-]?bit|4位\s*lora") + r"|4bit微调|4-bit微调|4\s*bit\s*量化\s*(?:后)?\s*(?:再)?\s*(?:微调|训练)", text):  # ('4bit 量化' alone: a format)
        found.append("qlora")
    loras = re.findall(r"(?<![a-z0-9q])lora(?![a-z0-9])(?!\s*[_-]?\s*(?:rank|r\b|r=|alpha|dropout|target|config|adapter|权重|秩))", text)
    listed = has(r"q?lora\s*(?:\(.{0,12}\))?\s*(?:vs\.?|or|versus|and|和|还是|、|,|/|与|或|对比)\s*(?:16[\s-]?bit\s*)?q?lora|"
                 r"三种|两种|分别|" + w(r"which ones|each of"), text)
    if loras and not has(r"(?<![a-z0-9q])lora(?![a-z0-9]).{0,12}4[\s-]?bit", text) and ("qlora" not in found or listed):
        found.append("lora")
    if not found and has(r"(?<![a-z0-9q])lora[\s_-]*(?:rank|r\b|r=|秩)", text):
        found.append("lora")  # 'lora rank 256' without QLoRA named is a LoRA job
    training = has(FINETUNE_CUE, text)
    serving = has(INFER_CUE, text)
    if has(w(r"full[\s-]*(?:fine[\s-]*tun\w*|ft|finetun\w*|param\w*|sft|training|train)|fft") + r"|全参|全部参数|全餐", text) or \
            has(r"(?:vs\.?|or|/|,|、|和)\s*full(?![a-z])|(?<![a-z])full\s*(?:vs\.?|or|/|,|、)", text) or \
            (training and has(r"\(\s*full(?:[\s-]*param\w*)?\s*\)|(?<![a-z])full(?:[\s-]*(?:weights?|model|parameters?))?\s*(?:fine|sft)|"
                              r"all (?:the )?(?:weights|parameters)", text)) or \
            (has(r"全量", text) and (training or not serving)):
        found.append("full")
    tried = [m for m in found if _tried_and_dropped(m, text)]
    if tried and len(tried) < len(found):  # ('want a FULL fine-tune (tried LoRA, it plateaued)'): no option any more
        found = [m for m in found if m not in tried]
    out: dict = {}
    if len(found) >= 2:
        out["methods"] = [m for m in ("full", "lora", "qlora") if m in found]
    elif found:
        out["method"] = found[0]
    if has(w(r"pre[\s-]?train\w*|from scratch|continued pre[\s-]?training|cpt") + r"|预训练|从头训|从零训|增量预训练", text):
        out.setdefault("method", "pretrain")
    return out


# the quoted run used as a yardstick for the user's own job ('using their number', 'at the same efficiency',
# '按他们的效率', '照这个比例')
THEIR_YARDSTICK = (r"(?<![a-z])(?:using|use|with|at|by|from|based on|going by|per|scaling|scaled by|applying)\s+"
                    r"(?:their|the same|that|those|this|these|meta's|[a-z]+'s)\s+(?:own\s+)?(?:numbers?|figures?|"
                    r"efficiency|rates?|mfu|throughput|recipe|ratio|math|gpu[\s-]*hours?|data)(?![a-z])|"
                    r"按(?:他们|它|这个|同样|相同)的?(?:效率|比例|数据|数字|卡时)|照(?:这个|他们的)(?:比例|效率)")


# 'rent or buy?', 'leasing vs buying', '租还是买': a decision between renting and owning (answered by the break-even)
RENT_OR_BUY = r"(?:租|买)还是(?:自己)?(?:买|租)|" + w(
    r"(?:rent|renting|lease|leasing)[\s-]+(?:or|vs\.?|versus)[\s-]+(?:to )?(?:buy|buying|own|owning|purchase|purchasing)|"
    r"(?:buy|buying|own|owning|purchase|purchasing)[\s-]+(?:or|vs\.?|versus)[\s-]+(?:to )?(?:rent|renting|lease|leasing)|"
    r"(?:rent|renting|leasing|buy|buying|owning|purchasing) (?:\w+ ){0,2}(?:cheaper|more expensive|better|worth it) than "
    r"(?:to )?(?:buy|buying|own|owning|purchas\w*|rent|renting|leas\w*)") + r"|租(?:卡)?比买.{0,4}(?:便宜|划算|贵)|买(?:卡)?比租.{0,4}(?:便宜|划算|贵)"
# 'API 还是自己部署', 'API or self-host', 'self-hosting vs the API', '自建和调接口': an API's bill against one's own GPUs
_API = r"(?:(?<![a-z])(?:apis?|api调用)(?![a-z])|调接口|调用接口|接口|官方服务|云服务)"
_SELF = (r"(?:自建|自己部署|自部署|私有化|本地部署|自己搭|自己跑|自托管|" +
         r"(?<![a-z])(?:self[\s-]?host\w*|host(?:ing)? (?:it )?(?:ourselves|myself)|own (?:gpus|hardware|servers?)|"
         r"on[\s-]?prem\w*|run (?:it )?(?:ourselves|myself|locally))(?![a-z]))")
_VS = r"(?:还是|或者|或是|和|跟|与|对比|比|vs\.?|versus|or|than|against|compared (?:to|with))"
API_VS_SELF = (_API + r".{0,24}?" + _VS + r"\s*.{0,10}?" + _SELF + "|" + _SELF + r".{0,24}?" + _VS + r"\s*.{0,10}?" + _API)


FINETUNE_CUE = w(r"fine[\s-]*tun\w*|finetun\w*|sft|ft|train\w*|dpo|rlhf|grpo|ppo|lora|qlora") + r"|微调|训练|训"
INFER_CUE = (w(r"run\w*|inference|infer|serv(?:e|es|ing)|host\w*|deploy\w*|load\w*|chat|generat\w*|local(?:ly)?|"
               r"ollama|vllm|sglang|llama\.?cpp|lm ?studio|api|endpoint|production") +
             r"|推理|部署|跑|运行|加载|上线|服务|本地|对话")


def precision(text: str) -> dict:
    """Weights / training precision and KV-cache dtype."""
    text = unnegated(text)
    out: dict = {}
    m = re.search(r"(?:kv[\s_-]*(?:cache)?[\s_-]*(?:dtype)?\s*[=:：]?\s*(?:用|in|at|as|设为|使用|改成|改为|换成|改|换|to|存成)?\s*(fp8|bf16|fp16|int8))|"
                  r"(?:(fp8|bf16|fp16|int8)\s*(?:的)?\s*kv)", text)
    if m:
        kv = m.group(1) or m.group(2)
        out["kv_dtype"] = "fp8" if kv == "int8" else kv
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    text = re.sub(r"8[\s_-]?bit\s*(?:adam\w*|optimi[sz]er)|(?:paged[\s_-]*)?adam\w*[\s_-]*8[\s_-]*bit|8位\s*adam\w*", " ", text)
    unquantised = has(r"原版|不量化|未量化|无量化|" + w(r"unquantized|unquantised|no quantization|without quantization"), text)
    for p, pattern in (("iq4_xs", w(r"iq4_xs|iq4_nl")), ("iq3_xxs", w(r"iq3_[a-z]+")), ("iq2_xxs", w(r"iq2_[a-z]+")),
                       ("nvfp4", w("nvfp4")),  # (llama.cpp's i-quants and Blackwell's FP4: each its own bytes)
                       ("q3_k_m", w(r"q3_k(?:_[ms])?|3[\s-]?bit") + r"|(?<![a-z0-9_-])q3(?![a-z0-9_])" + NOT_A_QUARTER
                        + r"|3位|三位"),  # ('at Q2/Q3': the larger, Q3; 'the Q3 launch': a quarter)
                       ("q2_k", w(r"q2_k|2[\s-]?bit") + r"|(?<![a-z0-9_-])q2(?![a-z0-9_])" + NOT_A_QUARTER + r"|2位|二位"),
                       ("bare", BARE_QUANT_PATTERN),  # ('Q4', 'Q8' not read as a checkpoint's name: formats.bare_quant)
                       ("nf4", w("nf4")), ("fp8", w("fp8|e4m3")), ("bf16", w("bf16|bfloat16")),
                       ("fp16", w("fp16|float16|half precision") + "|半精度"), ("fp32", w("fp32|float32|full precision") + "|全精度"),
                       ("int8", w(r"int8|8[\s-]?bit|w8a8") + r"|8位|八位"),
                       ("int4", w(r"int4|4[\s-]?bit|w4a16|awq|gptq") + r"|4位|四位")):
        m = re.search(pattern, text)
        if m:
            out["precision"] = bare_quant(m.group(0)) if p == "bare" else p
            break
    if (unquantised or has(FULL_MODEL, text)) and "precision" not in out:
        out["full_model"] = True  # '满血版', '原版不量化', 'the full model': the published checkpoint's own format
    return out


# the complete model in its native precision (满血 = not distilled, not quantized)
FULL_MODEL = r"满血|完整版|原版|非蒸馏|不是蒸馏|" + w(r"full[\s-]*(?:fat|size[d]?|model|version|weights)|native precision|"
                                       r"full[\s-]*precision weights|not (?:a |the )?distill\w*|the real \d+b") + \
    "|" + w("full") + r"\s+(?=deepseek|qwen|llama|kimi|glm|r1|v3|mixtral|mistral)"


def optimizer_and_sharding(text: str) -> dict:
    out: dict = {}
    if has(r"paged[\s_-]*adamw?[\s_-]*(?:8[\s_-]*bit|_8bit)", text):
        out["optimizer"] = "paged-adamw-8bit"
    elif has(r"adamw?[\s_-]*8[\s_-]*bit|8[\s_-]*bit\s*adamw?|adamw_bnb_8bit|bnb\s*adam|8位\s*adam|8-bit optimi[sz]er|8bit optimi[sz]er", text):
        out["optimizer"] = "adamw-8bit"
    elif has(w("adafactor"), text):
        out["optimizer"] = "adafactor"
    elif has(w("sgd"), text):
        out["optimizer"] = "sgd"
    elif has(w(r"adamw?|adam_torch|adamw_torch"), text):
        out["optimizer"] = "adamw"
    m = re.search(r"zero[\s_-]*(?:stage)?[\s_-]*([0-3])(?![0-9])|ds_z([0-3])|deepspeed.{0,12}stage\s*([0-3])|" + w(r"z([0-3])"),
                  unnegated(text))
    if negates(r"zero(?![\s_-]*(?:stage)?[\s_-]*[1-3])|deepspeed|fsdp", text) and not m:
        out["zero"] = 0  # ('no ZeRO/offload', '不用 deepspeed'): nothing sharded
    elif m:
        out["zero"] = int(next(g for g in m.groups() if g))
    elif has(w("fsdp") + r"|full[\s_-]*shard", text):
        out["zero"] = 3
    elif has(w(r"ddp|distributed\s*data\s*parallel|plain data parallel\w*|pure data parallel\w*") +
             r"|纯数据并行|数据并行\s*[（(]?\s*ddp", text):
        out["zero"] = 0  # ('4 张 4090 DDP'): each GPU holds the whole model and its states; nothing sharded
    if negates(r"offload|卸载", text):
        out["offload"] = "none"  # ('no CPU offload': the answer may not lean on it; 'mine OOMs w/o offload' is no rule)
    elif has(w(r"offload\w*") + r"|卸载", unnegated(text)):
        out["offload"] = "all" if has(r"offload\w*\s*(?:_|\s)?(?:param\w*|weights?|all|everything)|param\w*\s*offload|全部卸载|"
                                      r"参数.{0,4}卸载", text) else "optimizer"
    if has(r"(?:no|without|disable\w*|不用|不开|关闭|关掉)\s*(?:grad(?:ient)?|activation|梯度)?\s*(?:checkpointing|检查点|重计算)", text):
        out["recompute"] = "none"
    elif has(w(r"grad(?:ient)?[\s_-]*(?:checkpoint\w*|ckpt)|activation[\s_-]*(?:checkpoint\w*|ckpt)|recompute\w*") +
             r"|梯度检查点|重计算", text):
        out["recompute"] = "full"
    if has(w(r"liger(?:[\s_-]*kernel)?|fused[\s_-]*(?:linear[\s_-]*)?cross[\s_-]*entropy|chunked[\s_-]*(?:cross[\s_-]*entropy|"
             r"loss|ce)|cut[\s_-]*cross[\s_-]*entropy|unsloth") + r"|分块交叉熵|分块\s*loss", text):
        out["loss"] = "chunked"  # the vocabulary's logits never all held at once
    m = re.search(w(r"(?:lora[\s_-]*)?(?:rank|r)\s*(?:[=:]|of|to|改成|设成|设为|设到|为|开到)?\s*(\d{1,4})")
                  + r"|秩\s*[=:：为]?\s*(\d{1,4})|lora_r\s*[=:]?\s*(\d{1,4})", text)
    if m and (has(w("lora|qlora|rank") + "|秩", text)):
        out["lora_rank"] = int(next(g for g in m.groups() if g))
    targets = lora_targets(text)
    if targets:
        out["lora_targets"] = targets
    return out


_ALL_LINEAR = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def lora_targets(text: str) -> list[str] | None:
    """LoRA target modules named ('q_proj and v_proj', 'only q,v', 'attention only', '只训注意力'), as the Llama-style
    module names; None when none are named or all seven linear layers are (the default)."""
    if not has(w("lora|qlora|peft|adapters?|target\\w*") + "|秩|适配器", text):
        return None
    named = re.findall(r"(?<![a-z])(q|k|v|o|gate|up|down)_proj(?![a-z])", text)
    if not named:
        m = re.search(r"(?:target\w*|on|只训|只对|仅对|作用于|modules?)\s*(?:only\s*)?[:=]?\s*\(?"
                      r"((?:q|k|v|o|gate|up|down)(?:\s*(?:,|/|&|and|、|和)\s*(?:q|k|v|o|gate|up|down))+)(?![a-z])", text)
        if m:
            named = re.findall(r"(?<![a-z])(q|k|v|o|gate|up|down)(?![a-z])", m.group(1))
    if not named and has(w(r"attention[\s-]*only|only (?:the )?attention|attn[\s-]*only") + r"|仅注意力|只训注意力|只在注意力", text):
        named = ["q", "k", "v", "o"]
    names = list(dict.fromkeys(f"{n}_proj" for n in named))
    if not names or set(names) == set(_ALL_LINEAR):
        return None
    return names


# What a request's prompt and its output are called, and the words between such a name and its length
# ('prompts are ~1k', 'replies average 300', '输入约2000', '回复大概 300').
_PROMPT = r"(?<![a-z])(?:prompts?|inputs?|documents?|docs|articles?)(?![a-z])|输入|提示词?|(?<!个)问题|文档|文章"
_PROMPT_BARE = r"(?<![a-z])(?:prompts?|inputs?)(?![a-z])|输入|提示词?|(?<!个)问题"  # '2k prompts' (no 'tokens') is still a length
# ('三个问题: 32 个并发': the message's questions counted, not a prompt of 32 tokens)
_OUTPUT = (r"(?<![a-z])(?:outputs?|completions?|answers?|responses?|replies|reply|generations?|summar(?:y|ies)|back)(?![a-z])|"
           r"输出|生成|回复|回答|摘要|返回")  # ('gets ~150 tokens back')
_IS = (r"(?:\s*(?:is|are|of|about|around|roughly|approximately|approx\.?|averag(?:e|es|ing)|typically|usually|mostly|"
       r"~|≈|=|:|：|是|为|约|大概|大约|平均|一般|在)(?![a-z])\s*){0,3}\s*")


# Buying hardware to own (not renting it), a home or local machine, and a machine already owned.
BUY_CUE = (r"买|购|入手|装机|攒机|攒一台|配一台|配台|配个|自建|" +
           w(r"buy|buying|bought|purchase|purchasing|build(?:ing)? (?:a|an|my|our)|get for (?:my|our|home)|"
             r"spend|own hardware|self[\s-]*host\w*|on[\s-]*prem\w*"))
HOME_CUE = r"本地|家用|家里|在家|个人|自己用|" + w(r"local|locally|at home|home|personal|desk|desktop|workstation")
RENT_CUE = r"租|云上|" + w(r"rent|renting|rental|cloud|per hour|hourly|on[\s-]*demand")
HOST_OWNED = (r"主机已有|已有主机|已经有主机|只买显卡|只买卡|只算显卡|预算[^，,。；;]{0,12}买显卡|显卡预算|买显卡的预算|"
              r"电源[^，,。；;]{0,10}(?:不想换|不换|不打算换)|现有(?:的)?(?:主机|电脑|机器)|我的(?:主机|电脑)|" +
              w(r"(?:my|our) (?:current |existing )?(?:pc|rig|desktop|tower|workstation|psu|power supply)|"
                r"gpu budget|card budget|budget for (?:the |a )?(?:gpus?|cards?)") + "|" +
              w(r"cards? only|gpus? only|already (?:have|own|got) (?:a|the|my|an)?\s*(?:pc|machine|box|rig|workstation|"
                r"server|host|desktop|tower)"))


MAX_PROMPT_TOKENS = 10_000_000  # no model reads more at once (Llama 4 Scout's 10M window): beyond it, a corpus


_CTX_WORD = r"(?:ctx|context|上下文|tokens?\s*(?:context|ctx|上下文|window|窗口)|token\s*的?\s*(?:上下文|请求)|seq(?:uence)?s?)"


def contexts_named(text: str) -> list[int]:
    """Every context length written with a context word ('at 8k ctx and at 128k ctx', '8k 和 32k 上下文', 'context 4k
    or 32k'), in the order written, each once (k = 1024)."""
    from assistant.readers.numbers import length

    found: list[int] = []
    for m in re.finditer(r"(?<![\d.,$¥￥])(\d+(?:\.\d+)?\s*k|\d{3,7})(?![\d.,])(?=\s*(?:tokens?\s*)?(?:的\s*)?(?:"
                         + _CTX_WORD + r"|(?:and|or|和|或|跟|与|/|、|,|，)\s*(?:at\s+)?\d+(?:\.\d+)?\s*k\s*(?:tokens?\s*)?"
                         + _CTX_WORD + r"))", text):
        v = length(m.group(1))
        if v and 256 <= v <= 10_485_760 and v not in found:
            found.append(v)
    for m in re.finditer(r"(?:ctx|context|上下文)\s*(?:length|长度)?\s*(?:of|is|=|:|：|为|是)?\s*(\d+(?:\.\d+)?\s*k)"
                         r"((?:\s*(?:and|or|vs\.?|和|或|/|、|,|，)\s*\d+(?:\.\d+)?\s*k)+)", text):
        for part in [m.group(1)] + re.findall(r"\d+(?:\.\d+)?\s*k", m.group(2)):
            v = length(part)
            if v and v not in found:
                found.append(v)
    return found


def lengths(text: str) -> dict:
    """Sequence / context / prompt / output lengths in tokens (k = 1024)."""
    out: dict = {}
    # ('prompt 一般 3-4k token', 'prompts are 3-4k'): the unit after a range is both ends' (this text is local)
    text = re.sub(r"(?<![\d.])(\d+(?:\.\d+)?)(\s*[-~～到至]\s*)(\d+(?:\.\d+)?)(\s*k)(?![a-z])", r"\1k\2\3\4", text)
    text = re.sub(r"(?:输入|input|prompt)\s*(?:[:：/]|to|比)\s*(?:输出|output|completion)[^0-9]{0,8}\d+(?:\.\d+)?\s*[:：]\s*\d+(?:\.\d+)?",
                  lambda m: " " * len(m.group(0)), text)  # '输入:输出 3:1': a ratio, not lengths
    text = re.sub(RATIO_FIRST, lambda m: " " * len(m.group(0)), text)  # ('3:1 input to output')
    text = re.sub(r"~?\d[\d,.]*\s*[km]?\s*(?:[a-z]{1,2}\d{2,4}[\s-]*)?(?:gpu[\s-]*)?(?:hours?|hrs?|卡时|小时|days?|天)(?![a-z])",
                  lambda m: " " * len(m.group(0)), text)  # ('~10k GPU-hours', '30 days'): durations, not lengths
    text = re.sub(RATIO_PER, lambda m: " " * len(m.group(0)), text)  # ('~3 input tokens per output token')
    text = re.sub(r"(?<![\d.])\d(?:[)）、]|\.(?=\s*[\u3400-\u9fff]))(?=\s*\S)", "  ", text)
    # ('三个问题：1）…', '几个问题：1. 能装下吗 2. …': an item's number, not a length)
    text = re.sub(r"(\d+(?:\.\d+)?)\s*(万|亿|百万|千万|million|billion|bn)(?![a-z])",
                  lambda m: " " * len(m.group(0)) if float(m.group(1)) * VOLUME_MAG[m.group(2)] >= 1e6 else m.group(0),
                  text)  # '输入 1.6 亿，输出 4000 万': a day's volume of tokens, not one request's lengths ('1 万 token 的代码' is one)
    text = re.sub(r"[¥$￥]\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*(?:元|块钱|块|美元|美金|刀|dollars?|usd|cny|rmb)(?![a-z])",
                  lambda m: " " * len(m.group(0)), text)  # '输入 4 元/百万': a price, not a length
    packed = re.search(r"(?:packing|packed|pack|打包|拼接)\w*\s*(?:到|成|to|into|at|of)?\s*(\d+(?:\.\d+)?)\s*(k|K)?\s*(?:tokens?|token)?"
                       r"(?:\s*(?:seq\w*|序列|长度))?", text)
    if packed:  # 'packing 到 8k': samples packed into sequences of that length: the training sequence
        v = float(packed.group(1)) * (1024 if packed.group(2) else 1)
        if 128 <= v <= 1_048_576:
            out["seq_len"] = int(v)
            text = text[:packed.start()] + " " * (packed.end() - packed.start()) + text[packed.end():]
    asked = re.search(r"(?:how many|多少|几个)\s*(?:concurrent|simultaneous|parallel|并发)?\s*(\d+)\s*k[\s-]*(?:token)?[\s-]*"
                      r"(?:context\s+)?(?:users?|requests?|sequences?|chats?|sessions?)", text)
    if asked:  # 'how many concurrent 8k users?': 8k is each user's context
        out["length"] = int(asked.group(1)) * 1024
    text = re.sub(r"(?:(?<![a-z])per|/|每)\s*(?:1\s*)?(?:m|million|百万|k|thousand|千)\s*(?:个)?\s*(?:(?:output|input|输出|输入)(?:\s*tokens?)?|"
                  r"tokens?)(?![a-z])",
                  lambda m: " " * len(m.group(0)), text)  # 'per 1M output tokens', '每百万输出 token': a price's unit
    text = re.sub(r"\d[\d,.]*\s*k?\s*(?:output|generated|输出|生成)\s*(?:tokens?|toks?|t)\s*(?:/|per|每)\s*(?:s|sec|second|秒)(?![a-z])",
                  lambda m: " " * len(m.group(0)), text)  # '1,500 output tok/s': a rate, not an output length
    before = (rf"({LEN})[\s-]*(?:(?:tokens?)?\s*的?\s*(?:{_PROMPT_BARE}|提示|长文档|长文本|pdf)|tokens?\s*的?\s*(?:{_PROMPT}|长文档|pdf|"
              r"代码|文档|文本|资料|材料|合同|论文|日志|of (?:code|documents?|text|context|logs?)))")
    # ('丢 1 万 token 的代码进去', '10k tokens of code': what is pasted in is the prompt)
    number_first = re.search(before, text) and re.search(rf"({LEN})[\s-]*(?:tokens?|token)?\s*的?\s*(?:{_OUTPUT})", text)
    # ('1k 输入 300 输出': the numbers come before their words, so '输入 300' is not the prompt)
    m = (number_first and re.search(before, text)) or re.search(rf"(?:{_PROMPT})\s*(?:tokens?|长度|len\w*|length)?{_IS}({LEN})", text) \
        or re.search(before, text) \
        or re.search(rf"({LEN})\s*(?:tokens?)?\s*in(?![a-z])(?=\s*(?:/|,|and|\+|、|，)?\s*{LEN}\s*(?:tokens?)?\s*out)", text)
    avg = None if m else re.search(
        rf"(?:avg|averag\w*|mean|平均|均)\s*(?:of\s*)?({LEN})\s*(?:tokens?\s*)?(?:of\s*)?(?:context|ctx|上下文)|"
        rf"(?:context|ctx|上下文)\s*(?:length\s*)?(?:avg|averag\w*|mean|平均|均)\s*(?:约|of|is|~)?\s*({LEN})|"
        rf"(?:平均|均)\s*上下文\s*(?:约|是|为)?\s*({LEN})", text)
    if m and (length(m.group(1)) or 0) > MAX_PROMPT_TOKENS:
        m = None  # ('~50M tokens of text': a corpus to train on, not one prompt)
    if m:
        out["prompt_len"] = length(m.group(1))
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    elif avg:  # 'avg 6k context', '平均上下文 6k': an average request's length in flight, its prompt mostly
        out["prompt_len"] = length(next(g for g in avg.groups() if g))
        text = text[:avg.start()] + " " * (avg.end() - avg.start()) + text[avg.end():]
    after = rf"({LEN})[\s-]*(?:tokens?|token)?\s*的?\s*(?:{_OUTPUT})"
    m = (number_first and re.search(after, text)) or \
        re.search(rf"(?:{_OUTPUT}|max[\s_]*(?:new[\s_]*)?tokens)\s*(?:tokens?|长度|len\w*|length|size)?{_IS}({LEN})", text) \
        or re.search(rf"(?:{_OUTPUT})\s*(?:are|is|很|较|比较|都)?\s*(?:very\s+|quite\s+|really\s+)?(?:long|长)\s*[,，]?{_IS}({LEN})"
                     r"\s*(?:tokens?|token)", text) \
        or re.search(after, text) \
        or re.search(rf"({LEN})\s*(?:tokens?)?\s*out(?![a-z])", text)
    if m and re.match(r"\s*(?:个\s*)?(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tps|tokens? (?:per|a) second|token/秒|token每秒|个?token每秒)",
                      text[m.end():m.end() + 16]):
        m = None  # ('单请求输出 18 tok/s': a speed of the output, not its length)
    if m:
        out["output_len"] = length(m.group(1))
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    elif re.search(rf"(?:{_OUTPUT})[^。；;,，.]{{0,10}}?(?:上万|过万|破万)|(?:上万|过万)\s*(?:个)?\s*token\s*的?\s*(?:{_OUTPUT})", text):
        out["output_len"] = 10_000  # ('长思维链，输出经常上万 token'): ten thousand and more, the floor of what is said
    cue = (r"seq(?:uence)?[\s_-]*len(?:gth)?s?|seq|max[\s_-]*(?:seq[\s_-]*)?len(?:gth)?|cutoff(?:[\s_-]*len)?|model_max_length|"
           r"max_model_len|max[\s_-]*length|block[\s_-]*size|"
           r"context[\s_-]*(?:length|len|window|size)?|ctx|num_ctx|max_model_len|上下文(?:长度)?|序列长度|序列|文本长度|长度")
    conn = (r"(?:是|为|设的|设为|设成|设置为|设到|开到|拉到|再改成|改成|改为|换成|到|约|大概|of|is|are|=|:|：|at|to|up to|长|"
            r"of about|around|~)")
    m = re.search(rf"(?:{cue})\s*(?:再)?\s*{conn}?\s*{conn}?\s*({LEN})(?!\d|\.\d)(?!\s*(?:concurrent|simultaneous|active|users?|people|"
                  r"requests?|人|用户|并发|个用户))", text) or \
        re.search(rf"({LEN})\s*(?:tokens?\s*)?(?:的)?\s*(?:{cue}|long\s+(?:prompts?|documents?|inputs?)|tokens? long)", text) or \
        re.search(r"(?<![\d.$¥￥])(\d+(?:\.\d+)?\s*k)\s*(?:tokens?)?(?![a-z0-9])(?!\s*(?:a card|一张|一台|/))"
                  r"(?!\s*(?:examples?|samples?|rows?|conversations?|instructions?|records?|docs?|documents?|users?|people|"
                  r"条|个|样本|人|用户))(?!\s+(?:(?!tokens?(?![a-z])|toks?(?![a-z])|ctx|context)[a-z]+\s+)?"
                  r"(?!tokens?(?![a-z])|toks?(?![a-z])|ctx|context)[a-z]{3,}s(?![a-z]))", text) or \
        re.search(r"(?<![\d.$¥,])(512|1024|2048|3072|4096|6144|8192|12288|16384|32768|65536|131072)\s*(?:tokens?)?"
                  r"(?![\d.]|\s*(?:gb|g\b|mb|张|块|卡|台|个|条|b\b|万|亿|元|美元|gpus?|cards?|人|users?|steps?|%|x\b|×|"
                  r"[a-z]{1,3}\d{2,4}|rtx|nvidia|ascend|mi\d))", text)  # '2048 H100s' is a count, not a length
    if m and re.search(r"(?:budget|预算|cost|costs|price|priced|spend|pay|paid|capex|usd|rmb|cny|\$|¥|￥|花了?|块|元)\s*"
                       r"(?:is|of|=|:|：|about|around|roughly|~|约|大概|是|为|有)?\s*$", text[max(0, m.start() - 24):m.start()]):
        m = None  # ('budget is 50k': money, not a context of 51,200 tokens)
    if m:
        n = length(m.group(1))
        if n and n >= 16:
            out["length"] = n
    return out


_STEP = r"(?:steps?|it(?:er(?:ation)?s?)?|步|个\s*step|次迭代)"
_SECONDS = {"s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "秒": 1.0, "ms": 1e-3, "毫秒": 1e-3}


def measured_step(text: str) -> dict:
    """The user's own measured time per optimizer step: '2.4 s/step', '3.2s/it' (a trainer's progress bar), 'each step
    takes 850 ms', '一步 2.4 秒', '每个 step 大概 3 秒', '1.5 it/s' (its inverse). Seconds per step, or nothing."""
    unit = r"(ms|毫秒|secs?|seconds?|s|秒)(?![a-z])"
    m = re.search(rf"(?<![\d.])(\d+(?:\.\d+)?)\s*{unit}\s*(?:/|per|每|一)\s*{_STEP}(?![a-z])", text) or \
        re.search(r"(?:每一?步|一步|每个?\s*step|每一个\s*step|单步|每次迭代|" + w(r"each step|per step|a step|one step|every step|"
                  r"step[\s_-]*time") + r")\s*(?:takes?|took|is|was|of|=|:|：|约|大概|大约|需要|要|用了?|耗时|是|在)?\s*"
                  r"(?:about|around|roughly|~|≈|约)?\s*(\d+(?:\.\d+)?)\s*" + unit, text)
    if m:
        v = float(m.group(1)) * _SECONDS[m.group(2)]
        return {"measured_step_s": v} if 0 < v <= 3600 else {}
    m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:it|its|iters?|iterations?|steps?)\s*/\s*(?:s|sec|second)(?![a-z])", text)
    if m and float(m.group(1)) > 0:
        return {"measured_step_s": 1 / float(m.group(1))}
    return {}


def batches(text: str) -> dict:
    out: dict = {}
    m = re.search(r"(?:(global)[\s_-]*)?(?:batch|bs|gbs)(?:[\s_-]*size)?\s*(?:of|is|=|:|：|为|是)?\s*(\d+)\s*"
                  r"(?:seqs?|sequences?|samples?|examples?|条|个?样本|个?序列)?\s*[x×*]\s*(\d+(?:\.\d+)?)\s*(k)?(?!\d|\.\d)"
                  r"(?!\s*(?:gpus?|cards?|张|卡|nodes?|台|[a-z]{1,3}\d{2,4}))", text) or \
        re.search(r"(?<![\d.])(\d+)\s*(?:seqs?|sequences?|samples?|条|个?序列)\s*[x×*]\s*(\d+(?:\.\d+)?)\s*(k)?(?!\d|\.\d)"
                  r"(?=\s*(?:tokens?|token|tok)?(?![a-z]))", text)
    if m:  # 'global batch 64 seqs x 4096 tokens', '128 条 × 2048': the step's sequences and each one's length
        g = m.groups()
        count, length_, k = (g[1], g[2], g[3]) if len(g) == 4 else g
        seq = float(length_) * (1024 if k else 1)
        if 128 <= seq <= 1_048_576:
            out["global_batch"], out["seq_len"] = int(count), int(seq)
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    m = re.search(r"(?:micro[\s_-]*(?:batch|bs|bsz)(?:[\s_-]*size)?|per[\s_-]*device[\s_-]*(?:train[\s_-]*)?batch[\s_-]*size|mbs)\s*"
                  r"(?:[=:：]|to|of|is|改成|设为|设成|开到|为)?\s*(\d+)", text)
    if m:
        out["micro_batch"] = int(m.group(1))
    m = re.search(r"(?:global[\s_-]*batch(?:[\s_-]*size)?|gbs|总\s*batch)\s*(?:of|is|=|:|：|为|是)?\s*(\d+(?:\.\d+)?)\s*([km])?\s*"
                  r"(tokens?|token)?", text)
    if m and m.group(3):  # 'global batch 4M tokens': a batch in tokens, turned into sequences once the length is known
        out["_global_batch_tokens"] = float(m.group(1)) * {"k": 1e3, "m": 1e6}.get(m.group(2) or "", 1)
    elif m and not m.group(2):
        out["global_batch"] = int(float(m.group(1)))
    if m:  # ('global batch 1024 条序列' is not also a batch of 1024 below)
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    m = re.search(r"(?:grad(?:ient)?[\s_-]*accum\w*|梯度累[积加]|(?<![a-z])ga(?![a-z]))\s*(?:steps?)?\s*(?:of|=|:|：|为|是)?\s*(\d+)",
                  text)  # ('GA 4', 'grad accum 16', '梯度累积 8')
    if m:
        out["_grad_accum"] = int(m.group(1))  # with the micro-batch and the GPUs it makes the global batch
    m = re.search(w(r"(?:batch[\s_-]*size|batch|bs|bsz)\s*(?:of|=|:|是|为|设为|to|改成|开到|只能开|只能|最多开|最多)?\s*(\d+)")
                  + r"|批大小\s*[=:：为]?\s*(\d+)|"
                  r"(\d+)\s*的?\s*(?:batch|批)", text)
    if m and "micro_batch" not in out:
        out["batch"] = int(next(g for g in m.groups() if g))
    else:
        one = [x for x in re.finditer(w(r"single user|one user|a single request|one request|single[\s-]*stream|"
                                        r"single concurrency|concurrency (?:of )?1|batch[\s-]*size[\s-]*(?:of[\s-]*)?1|"
                                        r"(?:just|only) me(?! and| \+| with)|just myself|me alone|only i(?= use| will use)") +
                                      r"|单用户|一个用户|一个人用|单并发|单路|1\s*(?:路|个)?并发|并发\s*(?:数|为|是|=)?\s*1(?![\d.])"
                                      r"|我自己用|就我一个人|只有我一个人|只有我自己|就我自己|自己一个人用", text)
               if not re.match(r"[^，,。;；]{0,24}?" + TPS_RATE, text[x.end():])]
        if one:  # ('单路 decode 25 tok/s' beside a measured total: the measurement's condition, not the job's batch)
            out["batch"] = 1
    if has(w(r"(?:doc(?:ument)?s?|pdfs?|contracts?|reports?|papers?|long[\s-]*(?:form|context|inputs?))[\s-]*"
             r"(?:summari[sz]\w*|q\s*&\s*a|qa)|summari[sz]\w* (?:of |long |our |the )*(?:doc|pdf|contract|report|paper)\w*|"
             r"rag|retrieval[\s-]*augmented|long (?:documents|docs|pdfs|contracts|reports)")
           + r"|(?:长)?文档(?:总结|摘要|问答|分析)|长文本|长文档|知识库问答|合同(?:审核|审查|总结)|论文(?:总结|摘要)"
           r"|上下文(?:会|都|要|可能)?(?:比较|很|特别|挺|相当)?长|长上下文|"
           + w(r"long(?:er)?[\s-]*contexts?|large contexts?|contexts? (?:will be|is|are|gets?|get|can be) (?:long|large|big)"),
           text):
        out["long_documents"] = True
    elif has(w(r"(?:mostly |mainly |just |only )?short (?:chats?|conversations?|questions?|messages?|q\s*&\s*a)|"
               r"quick (?:chats?|questions?)") + r"|短对话|简短(?:的)?(?:对话|问答)|短问答|聊天为主|都是短的?(?:对话|问题)", text):
        out["short_chats"] = True  # 'about 50 people, mostly short chats': short prompts, short answers
    if has(w(r"max(?:imum)? throughput|peak throughput|max(?:imum)? tokens?/s|highest throughput|full load|saturat\w*|"
             # 'offline batch inference', '离线跑批': nobody waits on one stream; the whole batch's rate is the job
             r"offline (?:batch\w*|inference|processing|jobs?|generation)|batch (?:inference|processing|jobs?|generation)|"
             r"bulk (?:inference|generation|processing|labell?ing)")
           + r"|最大吞吐|峰值吞吐|吞吐上限|满载|极限吞吐|离线(?:推理|批量|任务|跑批|处理|生成)|跑批|批量推理|批处理", text):
        out["max_throughput"] = True
    return out


# a team that will use it: 'a 20-person team', 'team of 12', '20 人研发团队', '给 100 人左右日常用', '十来个人'
_ROUGH_ZH = {"十来": 12, "十几": 15, "二十来": 22, "二三十": 25, "几十": 30, "三四十": 35, "几": 5, "三五": 5, "三四": 4,
             "四五": 5, "五六": 6, "两三": 3}
TEAM = (r"(\d+)\s*(?:来|多|余)?\s*(?:个|号)?人(?:左右|上下)?\s*(?:的)?\s*(?:研发|开发|技术|算法|产品|业务|客服)?\s*(?:团队|小组|部门|组)|"
        r"(?:团队|小组|部门)\s*(?:有|共|约|大概)?\s*(\d+)\s*(?:来|多|余)?\s*(?:个|号)?人|"
        r"(?:给|供|让)?\s*(?:公司|部门|团队|全公司)?\s*(\d+)\s*(?:来|多|余)?\s*(?:个|号)?人\s*(?:左右|上下)?\s*(?:的)?\s*(?:日常|平时|内部|一起)?\s*(?:用|使用)|"
        r"(?:公司|全公司|单位|部门)\s*(?:有|共|约|大概)?\s*(\d+)\s*(?:来|多|余)?\s*(?:个|号)?人|"
        r"(?:内部|公司|部门|团队)\s*(?:用|使用)[^。？?\d]{0,8}?(\d+)\s*(?:来|多|余)?\s*(?:个|号)?人|"
        r"(十来|十几|二十来|二三十|几十|三四十)\s*(?:个)?人|"
        r"(几|三五|三四|四五|五六|两三)\s*个\s*(?:人|同事|员工)\s*(?:内部|一起|日常|平时)?\s*(?:用|使用)|" +
        w(r"(\d+)[\s-]*(?:person|people|member|man)[\s-]*(?:\w+[\s-]+)?(?:team|group|lab|org|company|startup)|"
          r"(?:team|group|lab) of (?:~|about |around |roughly |approx\.? )?(\d+)(?! ?(?:gpus?|cards?|nodes?|servers?))|"
          r"(?:team|group|lab)\s*[(,:]\s*(?:~|about |around |roughly )?(\d+)\s*(?:ppl|people|persons|folks|users|devs|"
          r"engineers)|"
          r"(?:for|by)\s*(?:~|about |around |roughly )?(\d+)\s*(?:ppl|people|persons|folks)(?! (?:at once|concurrently|"
          r"simultaneously|in parallel))|"
          r"(?:~|about |around |roughly )?(\d+)\s*(?:internal|in-house|company|office|employee)\s+users(?! (?:at once|"
          r"concurrently|simultaneously|in parallel|online))"))  # ('~30 internal users'): the people, not requests in flight


def load_words(text: str) -> str:
    """'concurent' (a typo) as 'concurrent'; '40 concurrent at peak', '60 simultaneous': the noun left out is users."""
    text = re.sub(r"(?<![a-z])(?:concurr?ent|conccurr?ent)(?![a-z])", "concurrent", text)
    return re.sub(r"(?<![\d.])(\d+)\s+(concurrent|simultaneous)(?!\s*(?:[a-z]+\s+)?(?:users?|requests?|sessions?|streams?|"
                  r"sequences?|chats?|conversations?|clients?|connections?|calls?))", r"\1 \2 users", text)


_GROW = {"double": 2.0, "doubling": 2.0, "doubles": 2.0, "triple": 3.0, "tripling": 3.0, "triples": 3.0,
         "quadruple": 4.0, "翻倍": 2.0, "翻一番": 2.0, "增加一倍": 2.0, "多一倍": 2.0, "翻两番": 4.0}


def load_growth(text: str) -> dict:
    """'double the number of users', '用户翻倍', 'traffic will triple', '3x the users', '并发增加到现在的 3 倍': the load
    grows by a factor (the base is today's load, stated or not)."""
    load = r"(?:users?|traffic|load|requests?|concurren\w*|usage|people|用户|流量|请求|并发|人数|访问量|调用量)"
    m = re.search(r"(double|doubling|doubles|triple|tripling|triples|quadruple)\s+(?:the\s+|our\s+)?(?:number\s+of\s+|"
                  r"count\s+of\s+)?" + load, text) or \
        re.search(load + r"[^。.?？,，]{0,20}?(?:will\s+|to\s+|would\s+)?(double|triple|quadruple)s?(?![a-z])", text) or \
        re.search(load + r"[^。.?？,，]{0,12}?(翻倍|翻一番|翻两番|增加一倍|多一倍)", text) or \
        re.search(r"(翻倍|翻一番|翻两番|增加一倍)[^。.?？,，]{0,6}" + load, text)
    if m:
        word = next(g for g in m.groups() if g)
        return {"load_multiplier": _GROW[word]}
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:x|×|倍)\s*(?:the\s+|our\s+|现在的\s*|目前的\s*)?" + load, text) or \
        re.search(load + r"[^。.?？,，]{0,12}?(?:增加到|涨到|变成|到)\s*(?:现在的|目前的|原来的)\s*(\d+(?:\.\d+)?)\s*倍", text)
    if m and 1 < float(m.group(1)) <= 100:
        return {"load_multiplier": float(m.group(1))}
    return {}


USER_BASE_MIN = 1000  # 'N users' with no word of concurrency, from this many up, is a user base, not a load in flight


def users(text: str) -> dict:
    out: dict = {}
    text = load_words(text)
    text = re.sub(r"(?<![一二三四五六七八九十两几百千万\d])([一两二三四五六七八九十百]{1,4})(?=\s*(?:个|号)\s*(?:人|用户|同事|员工))",
                  lambda m: str(int(to_number(m.group(1)))) if (to_number(m.group(1)) or 0) >= 2 and m.group(1) not in _ROUGH_ZH
                  and not re.fullmatch(r"[两二三四五六七八九]{2}", m.group(1)) else m.group(0), text)
    # ('十个人左右用', '二十个同事'): a count of people in Chinese numerals, read as its digits ('一个人用' stays one user)
    text = re.sub(r"单并发|单路|(?<![\d.])1\s*(?:路|个)?并发|并发\s*(?:数|为|是|=)?\s*1(?![\d.])", " ", text)  # batch 1
    # (one stream: read by batches(), not a load of users)
    at_once = re.search(r"(\d+)\s*(?:个)?\s*(?:人|用户|同事|员工)\s*(?:左右|上下|以内)?\s*(?:会)?\s*同时\s*(?:在)?\s*(?:用|使用|在线|访问|问|请求)",
                        text)
    if at_once and 0 < int(at_once.group(1)) <= 100_000:  # '50 人左右同时用': that many at once
        out["concurrent_users"] = int(at_once.group(1))
        text = text[:at_once.start()] + " " * (at_once.end() - at_once.start()) + text[at_once.end():]
    team = None if at_once else re.search(TEAM, text)
    if team:  # 'a 20-person R&D team', '给 100 人左右日常用', '十来个人': the people who use it
        n = next((g for g in team.groups() if g), None)
        v = _ROUGH_ZH.get(n) or to_number(n)
        if v and re.match(r"[^。.;；?？]{0,8}?(?:同时|一起|并发|at (?:the same|one) time|at once|simultaneous\w*|concurrent\w*)",
                          text[team.end():]):
            out["concurrent_users"] = int(v)  # '团队 20 个人同时用', 'a team of 20 all at once': all of them at once, said
            text = text[:team.start()] + " " * (team.end() - team.start()) + text[team.end():]
        elif v:
            out["team_size"] = int(v)
            text = text[:team.start()] + " " * (team.end() - team.start()) + text[team.end():]
    m = None if out else re.search(rf"({NUM})\s*({MAG})?\s*(?:{w('daily active users?|dau|daily users|users a day|users per day|users daily')}|"
                  r"日活(?:跃)?(?:用户)?|个?日活)", text) or re.search(rf"(?:日活|dau)\s*(?:是|为|约|大概|:|：)?\s*({NUM})\s*({MAG})?", text)
    if not m and not out:  # 'for our 300 employees', '20 个员工用': the people who will use it in a day
        people = w(r"employees|staff|colleagues|people in (?:our|the) (?:company|team|org)")
        eng = re.search(rf"(?:for|by|of)?\s*~?\s*({NUM})\s*(?:{w('engineers|developers|devs|researchers|data scientists')}|工程师|开发者|开发人员|研发)",
                        text)
        if eng and to_number(eng.group(1)) and to_number(eng.group(1)) <= 500:
            # '~20 engineers (coding assistant)': a working team that uses it through the day, not a public audience
            out["team_size"] = int(to_number(eng.group(1)))
            text = text[:eng.start()] + " " * (eng.end() - eng.start()) + text[eng.end():]
        m = None if out.get("team_size") else re.search(rf"({NUM})\s*({MAG})?\s*(?:名|个|位)?\s*(?:{people}|员工|同事)", text)
    if m and to_number(m.group(1)):
        out["daily_active_users"] = int(magnitude(to_number(m.group(1)), m.group(2)))
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    m = re.search(rf"({NUM})\s*(?:{MAG})?\s*(?:个|名|位)?\s*(?:左右|上下|来|多)?\s*(?:的)?\s*"
                  rf"(?:concurrent|simultaneous|parallel|active|同时在线的?|并发的?|在线的?)?\s*"
                  r"(?:(?:internal|external|chat|paying|beta|enterprise|end|real|power|heavy|light|active|typical|peak|api|"
                  r"human|office|b2b|b2c)\s+){0,2}"
                  r"(?:(?:such|of these|of those|full[\s-]*(?:length|context)|long)\s+|\d+(?:\.\d+)?\s*k?[\s-]*(?:tokens?|token)?[\s-]*)?"
                  rf"(?:{w('users?|people|ppl|clients?|requests?|sessions?|streams?|sequences?|chats?|conversations?')}|用户|人同时|人并发|"
                  r"人(?:同时|并发|在线|用|使用|在用|访问|调用)|路并发|个并发|并发|个请求|请求|路)", text)
    m2 = re.search(rf"(?:并发|concurrency|concurrent users|同时在线|同时)\s*(?:数|量|用户数?)?\s*(?:of|是|为|=|:|：|约|大概|达到|要)?\s*"
                   rf"({NUM})\s*({MAG})?", text)
    later = re.search(rf"({NUM})\s*(?:个|路)?\s*(?:concurrent\s+|simultaneous\s+)?(?:{w('requests?|sequences?|streams?|users?|sessions?')}|请求|用户)"
                      r"\s*(?:" + w(r"in[\s-]flight|at once|at the same time|concurrently|simultaneously") + r"|同时)", text)
    if m and later and later.start() > m.start() and not re.search(w("concurrent|simultaneous|parallel|active") + r"|并发|同时|在线",
                                                                   m.group(0)):
        m = later  # '~200 users, but realistically 20 requests in flight at once': the load is the in-flight count
    for hit in (m, m2):
        if hit and re.search(r"(?:how many|多少|几个)\s*(?:concurrent|simultaneous|parallel|并发)?\s*$",
                             text[max(0, hit.start() - 30):hit.start()]) and re.match(r"\d+(?:\.\d+)?\s*k", hit.group(0)):
            continue  # 'how many concurrent 8k users?': the users are asked; 8k is their context
        if hit:
            v = to_number(hit.group(1))
            mag = re.match(rf"\s*({MAG})", text[hit.end(1):])
            if v:
                v = magnitude(v, mag.group(1)) if mag and mag.group(1) in ("万", "k", "千", "w") else v
                if re.search(w("concurrent|simultaneous|parallel|active") + r"|并发|同时|在线|路", hit.group(0)) or \
                        re.search(w("users?|people|ppl|clients?") + "|用户|人", hit.group(0)) or \
                        re.match(r"[^.?!。？]{0,20}?" + w(r"at (?:the same time|once)|simultaneously|concurrently|in parallel|"
                                                          r"in[\s-]flight|outstanding"),
                                 text[hit.end():]):  # '4 such sequences at the same time', '30 requests in flight'
                    at_once_said = re.search(w(r"concurrent|simultaneous|parallel|active|in[\s-]flight|at once|at the same time|"
                                               r"simultaneously|concurrently|in parallel|streaming") +
                                             r"|并发|同时|在线|路", hit.group(0) + " " + text[hit.end():hit.end() + 30])
                    if v >= USER_BASE_MIN and hit is m and not at_once_said and \
                            re.search(w("users?|people|ppl|clients?") + "|用户|人", hit.group(0)) and \
                            "daily_active_users" not in out:
                        # 'we have 10k users', '1 万用户': a user base, not 10,000 requests in flight at once; its busiest
                        # moment is a small share of it (PEAK_SHARE_OF_DAU, said)
                        out["daily_active_users"] = int(v)
                        break
                    out["concurrent_users"] = int(v)
                    break
    m = re.search(r"(?:qps|rps)\s*(?:of|=|:|：|是|为|约|大概)?\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:(?:new|incoming|user|api|chat|"
                  r"inference|peak|concurrent)\s+)?(?:qps|rps|requests?\s*(?:per|/|a)\s*"
                  r"s(?:ec(?:ond)?)?|req/s|个?请求每秒)|每秒\s*(\d+(?:\.\d+)?)\s*个?请求", text)
    if m:
        out["requests_per_s"] = float(next(g for g in m.groups() if g))
    else:  # per minute / hour / day: '300 requests/min', '每分钟 300 个请求', '1M requests a day'
        first = re.search(rf"({NUM})\s*({MAG})?\s*(?:requests?|reqs?|calls?|queries|次请求|个请求|请求|次调用|次)\s*"
                          r"(?:per|/|a|an|each|every|每)\s*(min(?:ute)?|hour|hr|day|分钟|小时|天)(?![a-z])", text)
        # ('每千次请求成本多少': a price's unit, per thousand requests, not a load: skipped)
        second = None if first else next(
            (x for x in re.finditer(rf"(?:每|日均|每日|一天|平均每)\s*(分钟|小时|天|日)?\s*({NUM})\s*({MAG})?\s*(?:个|次)?\s*"
                                    r"(?:请求|调用|次)", text)
             if (x.group(1) or re.search(r"\d", x.group(2)) or x.group(0).startswith(("日均", "每日", "一天", "平均每")))
             and not re.match(r"\s*(?:的)?\s*(?:成本|费用|花费|价格|多少钱|要多少钱|收费)", text[x.end():x.end() + 8])), None)
        m = first or second
        if m:
            if m is second:
                unit = {"日": "天", None: "天"}.get(m.group(1), m.group(1))
                v, mag = to_number(m.group(2)), m.group(3)
            else:
                v, mag, unit = to_number(m.group(1)), m.group(2), m.group(3)
            if v:
                v = magnitude(v, mag) if mag else v
                per = {"min": 60, "minute": 60, "分钟": 60, "hour": 3600, "hr": 3600, "小时": 3600, "day": 86400,
                       "天": 86400}[unit]
                out["requests_per_s"] = round(v / per, 4)
                if per == 86400:
                    out["rate_from_daily"] = True  # ('1M requests a day'): an average over the day, not its peak
    think = re.search(r"(?:every|each)\s*(?:~|about|around|roughly)?\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|min|mins|minutes?)"
                      r"(?![a-z])|每\s*(?:隔)?\s*(\d+(?:\.\d+)?)\s*(秒|分钟)", text)
    if think and out.get("concurrent_users") and "requests_per_s" not in out and \
            re.search(w(r"sends?|asks?|messages?|msgs?|requests?|queries|calls?|types?") + r"|发|问|请求|提问|调用", text):
        # '300 concurrent users, each sends a short msg every ~30 s': a request rate (users / interval), not 300 in flight
        sec = float(think.group(1) or think.group(3)) * (60 if (think.group(2) or think.group(4) or "").startswith(("min", "分")) else 1)
        if sec >= 2:
            out["requests_per_s"] = round(out.pop("concurrent_users") / sec, 4)
    return out


def engine(text: str) -> dict:
    out = {}
    m = re.search(r"(?:gpu[\s_-]*memory[\s_-]*utili[sz]ation|mem[\s_-]*fraction[\s_-]*static)\s*(?:=|:|设成|设为|to|of|为|是)?\s*"
                  r"(0?\.\d+|1(?:\.0)?)", text)  # (SGLang's --mem-fraction-static is the same share)
    if m:
        out["gpu_memory_utilization"] = float(m.group(1))
    m = re.search(r"(?:max[\s_-]*num[\s_-]*seqs|max[\s_-]*running[\s_-]*requests)\s*(?:=|:|设成|设为|to|of|为|是)?\s*(\d{1,6})", text)
    if m and int(m.group(1)) >= 1:  # 'max_num_seqs 256': the engine's running-sequence cap, as set
        out["max_num_seqs"] = int(m.group(1))
    for name, pattern in (("vllm", w("vllm")), ("sglang", w("sglang")), ("tensorrt-llm", w(r"tensorrt[\s_-]*llm|trt[\s_-]*llm")),
                          ("llamacpp", w(r"llama[\s._-]*cpp|llamacpp|llama-server|lm ?studio|koboldcpp")),
                          ("ollama", w("ollama")), ("hf", w(r"transformers|hf generate|huggingface pipeline|accelerate"))):
        if has(pattern, text):
            return out | {"engine": name}
    return out


def quoted_run_figures(text: str) -> tuple[float, float, str] | None:
    """(GPU-hours, tokens, the sentence) a sentence quotes together for a run ('pre-training took 2.664M H800 GPU-hours for 14.8T
    tokens', '用了 3080 万卡时训了 15.6T token'), or None: the user's figures, which beat the record's."""
    for sentence in re.split(r"(?<=[。！？；\n])|(?<=[.!?;])\s+", text):
        m = re.search(r"(\d+(?:\.\d+)?)\s*(万|亿|k|m|million|thousand)?\s*(?:[a-z0-9-]+\s*)?(?:gpu[\s-]*hours?|gpu[\s-]*hrs?|卡时|gpu\s*小时)",
                      sentence)
        found = tokens(sentence).get("tokens")
        if m and re.search(r"(?:=|≈|~=|≃)\s*(?:~|≈|about |around |roughly |约|大约)?\s*$", sentence[:m.start()]):
            continue  # ('so that's ~30.84M x 7/405 = ~530k GPU-hours'): the user's own arithmetic, not a run quoted
        if m and found:
            hours = float(m.group(1)) * {"万": 1e4, "亿": 1e8, "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get(
                m.group(2) or "", 1)
            if hours >= 1000:
                return hours, found, sentence
    return None


# 'global batch 4M tokens', '每步 2M token', 'batch size of 1M tokens per step': a step's size, not the dataset
_STEP_SIZE = (r"(?:global[\s_-]*batch(?:[\s_-]*size)?|gbs|总\s*batch|全局\s*batch|全局批(?:大小|量)?|batch[\s_-]*size|batch|每步|每个\s*step|"
              r"per[\s-]*(?:optimizer[\s-]*)?step)\s*(?:of|is|=|:|：|为|是|约|大概|~|≈)?\s*$")


# plural nouns a number before a per-item length does not count as training items ('40 users, avg 2k tokens each')
_NOT_ITEMS = (r"(?:users|requests|gpus|cards|hours|days|weeks|months|years|tokens|toks|nodes|servers|people|seconds|"
              r"minutes|queries|sessions|calls|epochs|steps|layers|heads|experts|params|parameters|words|chars|characters)")


# bytes of a data file per token, for a size on disk: English text runs ~4 bytes a token in BPE tokenizers (Llama 3, GPT-4
# class, ~4 characters a token), JSONL keys and escapes add some; Chinese UTF-8 (3 bytes a character) runs ~1.5
# characters a token, so ~4.5 bytes. Assumptions, said with the figure; give the token count for an exact one.
BYTES_PER_TOKEN_EN = 4.0
BYTES_PER_TOKEN_ZH = 4.5


def tokens(text: str) -> dict:
    """Training tokens ('1T tokens', '1000亿token', '500B tokens'), samples x length, epochs."""
    out: dict = {}
    def _dataset_size(x) -> float | None:
        v = to_number(x.group(1))
        total = magnitude(v, x.group(2)) if v else 0
        return total if total >= 1e6 and (x.group(2) or total >= 1e7) else None

    m = next((x for x in re.finditer(rf"(?<!每)(?<!per )(?<!每个)({NUM})\s*({MAG})?[\s-]*(?:个)?\s*"
                                     rf"(?:(?:new|fresh|additional|extra|more|domain|in-domain|instruction|code|chat|clean|"
                                     rf"curated|english|chinese|multilingual)\s+)?"
                                     rf"(?:(?:training|train|pre[\s-]?training|fine[\s-]?tuning|sft|dataset|data|unique|high-quality)\s+)?"
                                     rf"(?:tok(?:en|ne)s?|词元|token数)",
                                     text)
              if not re.search(_STEP_SIZE, text[max(0, x.start() - 30):x.start()])
              and not re.search(r"(?:global[\s_-]*batch|gbs|全局\s*batch|总\s*batch|batch[\s_-]*size)[^，,。;；]{0,16}?[（(]\s*"
                                r"(?:约|about|~|≈)?\s*$", text[max(0, x.start() - 40):x.start()])
              and _dataset_size(x)), None)
    # ('global batch 512 条（约 4.2M tokens）': the step's tokens, in brackets after the batch, not the dataset; a
    # sequence's '4096 tokens' before '1.2B tokens' is no dataset either: the first count large enough to be one)
    if m and re.search(r"(?:每|per|/)\s*$", text[max(0, m.start() - 6):m.start()]):
        m = None  # '每百万 token 成本', '$ per 1M tokens': a unit of price, not a dataset
    if m:
        out["tokens"] = _dataset_size(m)
    if "tokens" not in out:  # '1e11 tokens', '2.5e12 token': scientific notation, as papers and configs write it
        m = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[eE]\s*\+?(\d{1,2})[\s-]*(?:个)?\s*(?:training\s+|train\s+)?(?:tok(?:en|ne)s?|词元)",
                      text)
        if m and 1e6 <= float(m.group(1)) * 10 ** int(m.group(2)) <= 1e15:
            out["tokens"] = float(m.group(1)) * 10 ** int(m.group(2))
    if "tokens" not in out:  # the word first: '总 token 1.5T', 'total tokens: 2T', '训练 token 数 5000 亿'
        m = re.search(rf"(?:总|共|合计|训练|预训练|total|training)\s*(?:tokens?|token\s*数|token\s*量|数据量)\s*(?:数|量)?\s*"
                      rf"(?:是|为|约|大概|大约|:|：|=|of|is|~)?\s*({NUM})\s*({MAG})", text)
        if m and to_number(m.group(1)) and magnitude(to_number(m.group(1)), m.group(2)) >= 1e6:
            out["tokens"] = magnitude(to_number(m.group(1)), m.group(2))
    if "tokens" not in out:
        m = re.search(rf"({NUM})\s*({MAG})?\s*(?:packed\s+)?(?:条|samples?|examples?|conversations?|rows?|instructions?|sequences?|"
                      r"对话|样本|(?:条|个)?序列)", text)
        per = re.search(rf"(?:每条|each|avg|averag\w*|平均|per sample|per example)\s*(?:约|大概|about|~|is)?\s*({LEN})\s*(?:tokens?)?",
                        text) or re.search(rf"({LEN})\s*tokens?\s*(?:each|per sample|per example|每条)", text) \
            or re.search(rf"(?:samples?|examples?|conversations?|rows?|instructions?|sequences?|条|样本|对话)\s*(?:of|at|with|,|，|x|×|"
                         rf"@|each of)\s*(?:about|around|~|≈|roughly)?\s*({LEN})[\s-]*(?:tokens?|tok)", text) \
            or re.search(rf"({LEN})[\s-]*(?:tokens?|tok)[\s-]*(?:long\s*)?(?:samples?|examples?|conversations?|rows?|条|样本)", text)
        if m is None and per:  # '~20k tickets, avg 800 tokens each': items of any name, each with its length
            m = re.search(rf"({NUM})\s*({MAG})?\s+(?:[a-z-]+\s+)?(?!{_NOT_ITEMS})([a-z]{{3,}}s)(?![a-z])"
                          rf"(?=[^.;?!。；]{{0,24}}?{re.escape(per.group(0))})", text)
        if m and re.search(r"batch", text[max(0, m.start() - 24):m.start()]):
            m = None  # 'global batch 256 sequences': a batch, not the dataset
        if m and per and to_number(m.group(1)):
            out["tokens"] = magnitude(to_number(m.group(1)), m.group(2)) * (length(per.group(1)) or 0)
            out["sample_len"] = length(per.group(1))
        elif m and to_number(m.group(1)):
            out["_samples"] = magnitude(to_number(m.group(1)), m.group(2))  # a count alone: its length may come later
        both = re.search(rf"({NUM})\s*({MAG})?\s+({LEN})[\s-]*(?:tokens?|tok)[\s-]*(?:long\s*)?(?:samples?|examples?|"
                         r"conversations?|rows?|documents?|条|样本)", text)  # '30k 4k-token examples'
        if "tokens" not in out and both and to_number(both.group(1)):
            out["tokens"] = magnitude(to_number(both.group(1)), both.group(2)) * (length(both.group(3)) or 0)
            out["sample_len"] = length(both.group(3))
    if "tokens" not in out:  # '2GB of jsonl', '数据 500MB 的文本': a data size on disk, read as tokens at bytes per token
        m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(tb|gb|mb)\s*(?:of\s+)?(?:的\s*)?(?:\w+\s+)?(jsonl|json|text|txt|csv|parquet|"
                      r"data|dataset|corpus|文本|数据|语料|训练数据)", text) or \
            re.search(r"(?:数据|语料|训练数据|dataset|data|corpus|jsonl)\s*(?:大概|大约|约|有|是|is|of|about|~)?\s*(\d+(?:\.\d+)?)\s*"
                      r"(tb|gb|mb)(?![a-z/])", text)
        if m:
            size = float(m.group(1)) * {"tb": 1e12, "gb": 1e9, "mb": 1e6}[m.group(2)]
            per = BYTES_PER_TOKEN_ZH if re.search(r"[\u3400-\u9fff]", text) else BYTES_PER_TOKEN_EN
            if size / per >= 1e6:
                out["tokens"] = size / per
                out["tokens_from_bytes"] = per
    off = re.search(r"(?:packing|packed|pack|打包|拼接|序列打包)\s*(?:[:=：]\s*)?(?:off|false|no|disabled|关|关闭|不开|否)|"
                    r"(?:no|without|w/o|not|不|没有?|未|关闭|关掉|不开)\s*(?:sequence\s*|样本\s*)?(?:packing|packed|pack|打包|拼接)",
                    text)
    on = re.search(r"(?:packing|packed|pack|打包|拼接)\s*(?:[:=：]\s*)?(?:on|true|yes|enabled|开|开启)|\((?:packed|packing)\)|"
                   r"(?<![a-z])packed(?![a-z])|with (?:sequence )?packing", text)
    if off:
        out["packing"] = False  # 'packing off': each sample is its own sequence, steps count samples
    elif on:
        out["packing"] = True
    m = re.search(r"(\d+(?:\.\d+)?|[一两二三四五六七八九十]+)\s*(?:个)?\s*(?:epochs?|轮|遍)", text)
    if m and to_number(m.group(1)):
        out["epochs"] = to_number(m.group(1))
    return out


# 'our own measurement: LoRA of 8B on 1x A100 runs at ~2,800 tokens/s', '我自己测的 … 吞吐大约 1800 tokens/s'
# someone else's figure quoted: 'a blog shows …', 'the vLLM docs report …', '官方数据 …', '网上评测 …'
QUOTED_SOURCE = (r"博客|论文|报告|评测|官方数据|官方说|据说|号称|网上|有人|知乎|推特|b站|小红书|公众号|帖子|" +
                 w(r"blog|paper|article|report(?:s|ed)?|published|posted|someone|somebody|a post|the docs|vendor says|"
                   r"tweet\w*|twitter|x\.com|reddit|r/localllama|youtube|video|hacker news|hn thread|forum|discord|"
                   r"according to|claims?|shows?|showed"))
OWN_MEASUREMENT = (r"measure\w*|benchmark\w*|(?:load|stress|perf(?:ormance)?)[\s-]?test\w*|测的|实测|测了|测出|压测|看板|监控显示|日志显示|" +
                   w(r"runs at|we get|we see|we got|we saw|getting|i get|i got|dashboard|logs? (?:say|says|show|shows)|"
                     r"grafana|wandb"))
# words that show a figure or a setting is someone else's, heard or read: 'saw a blog', '听说', 'the vendor claims'
HEARSAY = (r"看到|听说|有人说|别人|官方(?:说|称)|宣传|同事(?:说|讲|那边|们)|朋友说|隔壁|别的(?:组|团队)|" +
           w(r"saw|read|heard|reportedly|they say|vendor|benchmark(?:s|ed)? (?:show|say)|(?:a |my |our )?(?:colleague|coworker|"
             r"co-worker|friend|another team|other team)s?(?:'s)? (?:says?|said|told|reports?|got|gets|measured|ran)"))
QUOTE_CUE = QUOTED_SOURCE + "|" + HEARSAY
# words that mark a sentence as about the user's own set-up: '我们 … L40S', 'our cluster'
OWN_SETUP = r"我们|我司|咱们|手上|手里|(?<![a-z])(?:our|we|we've|we're|i have|i've got|my|us)(?![a-z])"
PAST_RUN = (r"(?<![a-z])(?:took|last|previous|earlier|ran|used to|measured|(?:fine[\s-]?tuned|(?:pre[\s-]?)?trained|finished|completed|did "
            r"(?:it|the run|the training))(?=.{0,120}?(?:in|within|over|for)\s+[\"'“]?(?:about|around|roughly|~|only|just)?\s*"
            r"\d))(?![a-z])|上次|之前|以前|用了|花了|跑了|训了|耗时")


def measured_and_new_tokens(text: str) -> tuple[float, float] | None:
    """(tokens of the user's earlier run, tokens of the job asked) when both are written: 'our last run, 200M tokens,
    took 6 hours … how long would 1.5B tokens take?', '上次 3 亿 token 用了 30 个小时，这次 12 亿 token'."""
    found = []
    for m in re.finditer(rf"(?<!每)(?<!per )({NUM})\s*({MAG})?\s*(?:个)?\s*(?:tok(?:en|ne)s?|词元)", text):
        v = to_number(m.group(1))
        if not v:
            continue
        total = magnitude(v, m.group(2))
        if total < 1e6:
            continue
        start = max(text.rfind(c, 0, m.start()) for c in ".?!。？！;；\n")
        ends = [i for i in (text.find(c, m.end()) for c in ".?!。？！;；\n") if i != -1]
        sentence = text[start + 1:min(ends) if ends else len(text)]
        found.append((total, bool(re.search(PAST_RUN, sentence))))
    past = [t for t, p in found if p]
    new = [t for t, p in found if not p]
    if len(found) >= 2 and past and new and past[0] != new[-1]:
        return past[0], new[-1]
    return None


def largest_model(text: str) -> dict:
    """'能训多大的模型', 'what's the biggest model I can run', 'what models fit on my card'."""
    if re.search(r"多大的?\s*(?:batch|bs|上下文|context|并发)|(?:batch|上下文|context)\s*(?:能|可以)?(?:开|跑|设)?(?:到)?多大", text):
        return {}  # '能跑多大的 batch': the largest batch, not the largest model
    if has(r"多大的?模型|最大(?:能|可以)?(?:训|跑|跑到|放|微调|部署)?多大|能(?:训|跑|放|微调|部署|用)多大|最大的模型|能用多大|"
           r"(?:能|可以)(?:跑|运行|部署|训|微调|带)(?:得动)?(?:什么|哪些|哪个)(?:样的)?(?:模型|大模型)?|"
           r"哪个尺寸|多大尺寸|多大参数|" + w(r"which size|what size|how large|how big") + r"(?!\s+(?:is|are|will|would)\s+(?:the\s+)?"
           r"(?:kv|cache|context|batch|memory|vram|weights?|checkpoint|activations?|file|download|bill|cost))|"
           + w(r"how big (?:a |of a )?(?:model|llm)|(?:largest|biggest) (?:model|llm)|what size (?:model|llm)|"
               r"(?:largest|biggest) [a-z][a-z0-9.\-]{1,16}(?: \d[\w.]*)? (?:model )?(?:i|we|you) (?:can|could) (?:run|serve|deploy|train|"
               r"pre[\s-]?train|fine[\s-]?tune|fit|host|load)|"
               r"what (?:models?|llms?) (?:can|could|will|would) (?:i|we) (?:run|train|fine[\s-]?tune|fit)|"
               r"what (?:models?|llms?) (?:fit|fits)|max(?:imum)? model size|"
               r"(?:chinchilla|compute)[\s-]*optimal (?:model )?(?:size|model)") +
           r"|(?:chinchilla|算力)\s*最优(?:的)?(?:模型)?(?:大小|尺寸|规模|参数量)", text):
        return {"largest_model": True}
    return {}


# 'is a week enough?', '一周够不够', '3 天能训完吗': a time the run is judged against, asked as a yes/no
TIME_ENOUGH = re.compile(
    r"(?<![a-z])(?:is|are|would|will)\s+(?:about\s+|roughly\s+|~\s*)?(" + NUM + r"|a|one)\s*(" + TIME_UNIT
    + r")\s+(?:be\s+)?(?:enough|sufficient|long enough)|"
    r"(" + NUM + r")\s*(" + TIME_UNIT + r")\s*(?:时间)?\s*(?:就|都|也)?\s*(?:够不够|够吗|够么|够用吗|来得及|能不能(?:训|跑|做)完|"
    r"(?:能|可以)(?:训|跑|做)完|训得完|跑得完)")


def deadline(text: str) -> dict:
    m = re.search(r"(" + NUM + r")\s*(" + TIME_UNIT + r")\s*(?:内|以内|之内|之前|搞定|完成|训完|跑完)", text) or \
        re.search(r"(?:within|in under|in less than|under|by|deadline(?: of| is)?\s*[:：]?|截止(?:时间|日期)?\s*[:：]?|before)\s*(" + NUM
                  + r"|a|one)\s*(" + TIME_UNIT
                  + r")(?![a-z])", text) or \
        re.search(r"(?:<|≤|<=|少于|不超过|不到)\s*(" + NUM + r")\s*(" + TIME_UNIT + r")(?![a-z])", text) or \
        re.search(r"(?:(?<![a-z])(?:only|just)\s+(?:have|got)|(?<![a-z])(?:have|got)\s+(?:only|just)|only|just|只有|只剩|就|仅有|"
                  r"时间只有|最多给|只给|给)\s*(?:about\s+|~\s*|大概\s*)?(" + NUM + r"|a|one)\s*(" + TIME_UNIT +
                  r")(?![a-z])(?!\s*(?:of|的)\s*(?:data|数据))", text)
    # ('what if we only have 20 days?', '只有 20 天呢': the time the run must fit in)
    if not m and re.search(r"train|fine[\s-]?tun|pre[\s-]?train|sft|lora|训|微调", text):
        # '… fine-tune … on 5B tokens in about 2 hours': the time the run must take, in a training question
        m = re.search(r"(?<![a-z])in\s+(?:about|around|roughly|approx\.?|~|just|only)?\s*(" + NUM + r"|a|one)\s*(" + TIME_UNIT
                      + r")(?![a-z])", text)
    if not m and re.search(r"train|fine[\s-]?tun|pre[\s-]?train|sft|lora|训|微调", text):
        # 'is a week enough?', '一周够不够', '3 天能训完吗': a time the run is judged against, asked as a yes/no
        m = TIME_ENOUGH.search(text)
    if not m and re.search(w(r"overnight|over ?night") + r"|一晚上|一夜|过夜", text):
        return {"deadline_hours": 12.0}  # 'needs to finish overnight': about 12 hours (an assumption, said)
    if m:
        value, unit = next((g, u) for g, u in zip(m.groups()[::2], m.groups()[1::2]) if g)
        v = to_number(value) if value not in ("a", "one") else 1.0
        if v:
            return {"deadline_hours": duration_hours(v, unit)}
    return {}


# A form factor written into a card's name ('H100 80GB PCIe', 'A100-SXM4-80GB', 'H800 PCIe') names the card, not the
# link the user says the cards talk over
_FORM_IN_NAME = re.compile(r"(?<![a-z0-9])([a-z]{1,3}\d{2,4}[a-z]?)((?:\s*[-_ ]?\s*\d+\s*g(?:b)?)?)\s*[-_ ]?\s*"
                           r"(?:pcie|sxm\d?)(?:\s*[-_ ]?\s*(\d+\s*g(?:b)?))?(?![a-z0-9])", re.I)


def interconnect(text: str) -> dict:
    text = _FORM_IN_NAME.sub(lambda m: " ".join(x for x in m.groups() if x), text)
    if has(w(r"infiniband|ib|ndr|hdr|edr") + r"|ib网|ib网络", text):
        return {"interconnect": "infiniband"}
    if has(w(r"roce(?:v2)?"), text):
        return {"interconnect": "roce"}
    m = re.search(r"(?<![\d.])(1|10|25|100|200|400)\s*(?:g|gb|gbe|gbps|gb/s|gbit|g以太网)(?![a-z0-9])", text)
    if m and (re.search(r"gbe|以太网", m.group(0)) or has(w(r"ethernet|gbe|nic|network|networking|net|interconnect|link|between") + r"|以太网|网卡|网络|互联", text)):
        return {"interconnect": f"ethernet-{m.group(1)}g"}
    if has(r"万兆", text):
        return {"interconnect": "ethernet-10g"}  # '万兆网' = 10 GbE
    if has(r"千兆", text):
        return {"interconnect": "ethernet-1g"}  # '千兆网' = 1 GbE
    if has(w(r"ethernet|tcp"), text) or has(r"以太网", text):
        return {"interconnect": "ethernet-25g"}  # an Ethernet of no stated speed: a common 25 GbE port
    if has(w(r"no nvlink|without nvlink|pcie only|pcie") + r"|没有nvlink|没有 nvlink|无nvlink", text):
        return {"interconnect": "pcie"}
    if has(w(r"nvlink|nvswitch|sxm"), text):
        return {"interconnect": "nvlink"}
    return {}


_MEMORY_CARD = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d)?)\s*(?:g|gb|gib)\s*(?:的)?\s*(?:of\s+)?(?:显存|vram|gpu|graphics card|card|卡|显卡)"
                   r"|(?:显存|vram)\s*(?:只有|是|为|有|[:：])?\s*(\d{1,3}(?:\.\d)?)\s*(?:g|gb|gib)(?![a-z])"
                   # 'is 24GB enough', 'will it fit in 48 GB?', '16G 够吗': a memory size asked about with nothing else
                   r"|(?:(?<![a-z])(?:is|are|in|with|only|just|have)\s+(?:a\s+|only\s+|just\s+)?)(\d{1,3}(?:\.\d)?)\s*(?:g|gb|gib)"
                   r"(?=\s*(?:enough|sufficient|ok|okay|of memory|\?|够|能跑|能不能))"
                   r"|(?<![\w.])(\d{1,3}(?:\.\d)?)\s*(?:g|gb|gib)\s*(?=够|够不够|够吗|能跑|能不能|可以吗)")


def card_by_memory(text: str) -> tuple[str, str, int, int] | None:
    """A card named only by its memory ('16G 显存的卡', 'a 24GB GPU', '显存只有12G'): (custom id, as written, span)."""
    m = _MEMORY_CARD.search(text)
    if not m:
        return None
    size = float(next(g for g in m.groups() if g))
    # a card sold as '24GB' holds 24 GiB (a 4090: 25.8 GB); other sizes are taken as written
    unit = "gib" if size in _MARKETED_GIB else "gb"
    return f"custom-{size:g}{unit}", m.group(0).strip(), m.start(), m.end()


_MARKETED_GIB = {4, 6, 8, 10, 11, 12, 16, 20, 24, 32, 40, 48, 64, 80, 94, 96, 128, 141, 192}


_RAM = re.compile(r"(?<![\w.])(\d{1,4})\s*(?:g|gb|gib)\s*(?:的)?\s*(?:ddr\d\w*\s*)?(?:系统)?(?:内存|(?<!v)ram\b|of\s+(?:system\s+|host\s+|cpu\s+)?(?<!v)ram\b|"
                  r"(?:system|host|cpu)\s+(?:ram|memory)|ddr\d)|(?:内存|(?<!v)ram\b)\s*(?:有|是|为|[:：])?\s*(\d{1,4})\s*(?:g|gb|gib)(?![a-z])")


_RAM_TB = re.compile(r"(?<![\w.])(\d(?:\.\d+)?)\s*(?:t|tb|tib)\s*(?:的)?\s*(?:ddr\d\w*\s*)?(?:系统)?(?:内存|(?<!v)ram\b|of\s+(?:system\s+|host\s+)?"
                     r"(?<!v)ram\b|(?:system|host|cpu)\s+(?:ram|memory))|(?:内存|(?<!v)ram\b)\s*(?:有|是|为|[:：])?\s*(\d(?:\.\d+)?)\s*"
                     r"(?:t|tb|tib)(?![a-z])")


def system_ram(text: str) -> dict:
    """System RAM for local offload: '128G 内存', '64GB DDR5', '64 GB of RAM', '内存 96G', '内存 1TB' (1 TB = 1,024 GB)."""
    t = _RAM_TB.search(text)
    if t:
        gb = float(t.group(1) or t.group(2)) * 1024
        return {"ram_gb": gb} if 4 <= gb <= 8192 * 4 else {}
    m = _RAM.search(text)
    if not m:
        return {}
    gb = float(m.group(1) or m.group(2))
    return {"ram_gb": gb} if 4 <= gb <= 8192 else {}


_TIME_MS = r"(\d+(?:\.\d+)?)\s*(ms|毫秒|milliseconds?|s|秒|secs?|seconds?)(?![a-z])"


def _ms(value: str, unit: str) -> float:
    return float(value) * (1 if unit in ("ms", "毫秒") or unit.startswith("milli") else 1000)


# a speed asked about ('能到 100 tok/s 吗', 'can it hit 50 tok/s', 'is 30 tok/s doable'), before the rate
REACH = (r"(?:能(?:不能|否)?(?:跑|达|上|做)?到|能否达到|可(?:以|不可以)?(?:跑|达)?到|达得到|跑得到|能跑|"
         r"(?<![a-z])(?:can|could|will|would|does|do|is|should)\s+(?:\S+\s+){0,5}?(?:hit|reach|achieve|get(?:\s+to)?|do|manage|"
         r"sustain|push|run at)\s+|(?<![a-z])(?:to|and)\s+(?:hit|reach|achieve|get to)\s+)\s*(?:about\s*|around\s*|~|≈|大约|约)?\s*")


# after a rate: whom it is for ('200 tok/s for a single user', '50 tok/s per stream', '每个用户'): one user's speed
ONE_USER_AFTER = (r"\s*(?:(?:for|per|to|of)\s+(?:a\s+|one\s+|each\s+|every\s+|the\s+)?(?:single\s+)?(?:user|stream|request|"
                  r"person|session|client|sequence)(?![a-z])|(?:给|对)?(?:单|每)(?:个)?(?:用户|人|路|请求))")


def targets(text: str) -> dict:
    """What the user holds the job to: a stated MFU ('45% MFU', 'MFU 0.4', 'mfu按40%'), a time-to-first-token target
    ('TTFT < 500ms', '首字延迟1秒以内', 'first token within 2 s'), an inter-token latency target ('ITL 50ms', '每个token
    50毫秒'), and a per-user decode rate ('at least 20 tokens/s per user', '每人每秒20个token', '≥30 tok/s each')."""
    out: dict = {}
    text = re.sub(r"(?<![a-z0-9])p(?:50|90|95|99|999)(?![0-9])", lambda m: " " * len(m.group(0)), text)
    # ('TTFT p50 < 1 s': the percentile names the statistic, not the target)
    m = (re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*%\s*(?:的\s*)?mfu", text)
         or re.search(r"mfu[^0-9\n。？?]{0,10}?(\d+(?:\.\d+)?)\s*(%?)", text))
    if not m and re.search(r"(?<![a-z])mfu(?![a-z])|利用率", text):
        # 'MFU 按多少算合理？我们之前的框架只跑到 30%': the figure in the next clause is the MFU the user reached
        m = re.search(r"(?:只跑到|跑到|只有|只能到|能到|到了|达到|reach\w*|got|hit|achiev\w*|managed)\s*(?:about|around|~|约|大概)?\s*"
                      r"(\d+(?:\.\d+)?)\s*%", text)
    if m:
        v = float(m.group(1))
        pct = "%" in m.group(0)
        v = v / 100 if (pct or v > 1) else v
        if 0 < v <= 1:
            out["mfu"] = round(v, 4)
    found = list(re.finditer(r"(?:ttft|time[\s-]*to[\s-]*first[\s-]*token|first[\s-]*token|首\s*(?:字|token|个token)"
                             r"(?:延迟|时间|响应)?|首字)[^0-9\n]{0,24}?" + _TIME_MS, text))
    # a target has a bound ('P99 首 token < 2s', 'TTFT under 1 s'); a bare figure beside a measurement is what was
    # measured ('并发 32 时 … 首 token 1.2 s'): with both, the bound is the target
    bounded = [m for m in found if re.search(r"<|≤|以内|以下|不超过|不高于|低于|小于|控制在|要求|目标|p9\d|" + w(
        r"under|below|within|less than|at most|max(?:imum)?|target|sla|slo|no more than"), m.group(0))]
    m = bounded[0] if bounded else (found[0] if found else None)
    if m and not bounded and (re.search(r"p50|median|mean|avg|average|平均|中位", m.group(0)) or
                              re.search(OWN_MEASUREMENT, text[max(0, m.start() - 80):m.start()])):
        m = None  # ('我们压测的 … 并发 32 时 TTFT p50 1.8 秒'): what the benchmark measured, no target
    if m:
        out["ttft_s"] = _ms(m.group(1), m.group(2)) / 1000
    m = re.search(r"(?:itl|inter[\s-]*token[\s-]*latency|tpot|time[\s-]*per[\s-]*output[\s-]*token|per[\s-]*token[\s-]*latency|"
                  r"token\s*间隔|每个?\s*token(?:的)?\s*(?:延迟|间隔|时间))[^0-9\n]{0,16}?" + _TIME_MS, text)
    if m:
        out["itl_ms"] = _ms(m.group(1), m.group(2))
    rate = r"(\d+(?:\.\d+)?)\s*(?:tokens?|toks?|t)\s*(?:/|per|每)\s*(?:s|sec|second)\b"
    m = (re.search(r"(?:每(?:个)?(?:人|用户|路|请求)|单(?:个)?用户|每路)(?:(?!输入|输出|prompt|提示)[^0-9\n]){0,12}?"
                   r"(?:每秒\s*(\d+(?:\.\d+)?)\s*(?:个)?\s*(?:token|tok|字)|(\d+(?:\.\d+)?)\s*(?:个)?\s*(?:tokens?|toks?|字)\s*"
                   r"(?:/\s*(?:s|sec|秒)|每秒|per\s*s))", text)
         # ('每个请求输入 1500 tokens' is a length; '每人每秒 20 个 token', '每路 20 tok/s' are rates)
         or re.search(rate + r"[^.?!\n]{0,16}?(?:per|each|for each|/)\s*(?:user|person|request|stream|seat|session)", text)
         or re.search(rate + r"\s*each", text)
         or re.search(r"(?:each|every (?:user|one|client|session)|per user|each user|每人|每个人|每个用户|每用户)[^0-9\n。.?？]{0,28}?"
                      r"(?:at least|min(?:imum)?|≥|>=|不低于|至少|不少于)?\s*" + rate, text)
         or re.search(r"(?:per|each)[\s-]*(?:user|person|stream|request)[^0-9\n]{0,24}?" + rate, text))
    if not m:  # '单路 ≥20 tok/s 就行', '每路 20 tok/s 以上即可': a floor for each stream
        m = re.search(r"单路\s*(?:(?:≥|>=|>|至少|不低于|不少于)\s*)?" + rate + r"(?=\s*(?:就行|就够|即可|以上|足够))|"
                      r"单路\s*(?:≥|>=|>|至少|不低于|不少于)\s*" + rate, text)
    if not m:  # 'one user … need at least 40 tok/s', '要求 ≥30 tok/s': a speed required of the stream, not one measured
        need = re.search(r"(?:(?<![a-z])(?:need|needs|require[sd]?|want|at least|min(?:imum)?|no less than|more than|over|"
                         r"above|say)(?![a-z])|≥|>=|>|要求|至少|"
                         r"不低于|不少于|高于|超过)\s*(?:at least\s*|≥\s*|>=\s*|>\s*|~\s*)?" + rate
                         + r"(?![^.?!。？\n]{0,16}(?:in total|total|aggregate|overall|throughput|合计|总|吞吐))", text)
        if need and not re.search(r"throughput|total|aggregate|吞吐|总|合计|batch|并发|concurren",
                                  text[max(0, need.start() - 30):need.start()]):
            m = need  # ('throughput needs 3,000 tokens/s' is the whole system's rate)
    if not m:
        m = re.search(rate + ONE_USER_AFTER, text)  # '200 tok/s for a single user'
    if not m:  # '能到 100 tok/s 吗', 'can it hit 50 tok/s?': a speed asked about, not one measured
        m = re.search(REACH + rate, text)
        if m and re.search(r"throughput|total|aggregate|吞吐|总|合计|batch|并发|concurren",
                           text[max(0, m.start() - 30):m.end() + 16]):
            m = None
    if m:
        v = float(next(g for g in m.groups() if g))
        if 0 < v <= 10_000:
            out["tokens_per_s_per_user"] = v
    return out


STANDARD_SERVER_GPUS = 8  # NVIDIA HGX/DGX (A100, H100, H200, H20, H800, B200), AMD MI300X platform, Ascend Atlas 800: 8 each
_SERVER_WORD = (r"(?:whole\s+|full\s+|complete\s+|single\s+)?(?:(?:[a-z]*\d[\w.\-]*|gpu|nvidia|sxm\d?|pcie)\s+){0,2}?"
                r"(?:nodes?|servers?|boxe?s?|dgx|hgx|machines?\s+with\s+(?:\w+\s+)?(?:gpus|cards))")


def standard_server(text: str) -> dict:
    """Servers named without their GPU count: 'a node of H100s', 'two H100 nodes', 'a whole 8-card server' (counted
    elsewhere), 'DGX H100', '一台H100服务器', '整机', '两台A800机器': the vendor's standard server of 8 GPUs, said
    as an assumption (standard_server)."""
    m = re.search(w(rf"({_COUNT_WORD}|\d+)\s+{_SERVER_WORD}"), text) or re.search(w(r"(dgx|hgx)"), text)
    if m and re.search(w(r"(?:size|spec(?: out)?|design|configure|recommend|quote|pick|choose|build)\s+(?:me\s+)?") + r"\s*$",
                       text[max(0, m.start() - 20):m.start()]):
        m = None  # 'size a server for …': the server is what is asked for, not one the user has
    if m and not re.search(w(r"(?:dgx|hgx)\s*(?:spark|station)"), text):
        word = m.group(1)
        n = 1 if word in ("dgx", "hgx") else to_number(word)
        if n and 1 <= n <= 512:
            return {"nodes": int(n), "gpus_per_node": STANDARD_SERVER_GPUS, "num_gpus": int(n) * STANDARD_SERVER_GPUS,
                    "standard_server": True}
    m = re.search(rf"({_CN_COUNT}|\d+)?\s*台[^\d，。？?]{{0,12}}?(?:服务器|整机|机器|节点)|(?<!连)(?<!含)(?<!带)整机(?!\s*(?:功耗|功率|耗电|电源|噪音|价|报价|约|大概|也|都|一起|在内|算进|算上|包括|包含|含|其他|其余|其它|部分|分摊|摊|(?:的)?(?:钱|费用|成本)))|"
                  rf"一整台|({_CN_COUNT}|\d+)\s*个节点", text)
    if m and re.search(r"家里|书房|卧室|家用|在家|办公室|插座|桌面|本地|" + w(r"at home|home|homelab|desk|desktop|workstation|office|"
                                                                         r"outlet"), text) and not re.search(
            r"服务器|8\s*卡|八卡|" + w(r"server|node|dgx|hgx"), text):
        m = None  # '家里书房放一台': one machine at home, not an 8-GPU server
    if m and re.search(r"(?:搭|攒|配|装|组|建|买)\s*(?:一|1|两|2)?\s*台\s*(?:机器|整机|服务器)?\s*$|(?:怎么|如何)配",
                       text[max(0, m.start() - 4):m.end()]):
        m = None  # '想搭一台机器…怎么配？': the machine to build is what is asked, its cards not yet chosen
    if m:
        word = m.group(1) or m.group(2) or "一"
        n = to_number(word)
        if n and 1 <= n <= 512:
            return {"nodes": int(n), "gpus_per_node": STANDARD_SERVER_GPUS, "num_gpus": int(n) * STANDARD_SERVER_GPUS,
                    "standard_server": True}
    return {}


_B = r"(\d+(?:\.\d+)?)\s*(?:b|billion|bn)(?![a-z0-9])"


_APPROX = r"(?:~|约|大约|大概|≈|about |around )?"  # '总参 ~100B', '激活约 6B'

def moe_shape(text: str) -> tuple[str, str] | None:
    """A stated MoE shape: ('120b-a12b', as written) from '120B total, 12B active', '120B-A12B', '120B 总参数，激活 12B',
    '总参 120B / 激活 12B', 'a 120B MoE with 12B active params'; None otherwise."""
    pats = [
        (rf"(?<![a-z0-9.]){_B}[\s-]*a\s*{_B}", 1, 2),
        (rf"(?<![a-z0-9.]){_B}[\s-]*(?:total|总参数?|总参|in total)[^0-9]{{0,40}}?{_B}[\s-]*(?:active|activated|激活)", 1, 2),
        (rf"(?<![a-z0-9.]){_B}[\s-]*(?:params?|parameters?)?\s*(?:moe)?[^0-9]{{0,24}}?(?:with|,|，|/|and)\s*{_B}[\s-]*(?:active|activated|激活)", 1, 2),
        (rf"(?:总参数?量?|总参|total(?: params| parameters)?)\s*(?:是|为|=|:|：|of)?\s*{_APPROX}\s*{_B}[^0-9]{{0,24}}?(?:激活|active)(?:参数量?|params?|parameters?)?\s*(?:是|为|=|:|：|of)?\s*{_APPROX}\s*{_B}", 1, 2),
        (rf"(?:激活|active)(?:参数量?|params?|parameters?)?\s*(?:是|为|=|:|：|of)?\s*{_APPROX}\s*{_B}[^0-9]{{0,24}}?(?:总参数?量?|总参|total(?: params| parameters)?)\s*(?:是|为|=|:|：|of)?\s*{_APPROX}\s*{_B}", 2, 1),
    ]
    for pat, ti, ai in pats:
        m = re.search(pat, text)
        if m:
            total, active = float(m.group(ti)), float(m.group(ai))
            if 0 < active < total:
                return f"{total:g}b-a{active:g}b", m.group(0)
    return None


# cost per token or per unit of throughput ('$/1M tokens', '每百万 token 多少钱', 'throughput per dollar')
# a size per tokens ('the KV cache per 1k tokens', '0.13 GB per 1k tokens', '每千 token 的 KV 缓存'): memory, not a cost
_SIZE_PER_TOKENS = (r"(?:kv[\s-]*cache|kv|缓存|memory|显存|内存|(?<![a-z])[gmk]i?b|bytes?|字节)\s*(?:size\s*)?(?:is\s*|are\s*|大概\s*)?"
                    r"(?:per|每|/)\s*(?:百万|1m|m|千|1k|thousand|million)?\s*(?:个)?\s*tokens?|"
                    r"(?:每|/)\s*(?:百万|千|1k)\s*(?:个)?\s*token\s*(?:的)?\s*(?:kv|缓存|显存)")


def per_token_cost(text: str) -> bool:
    """A cost per token asked ('$ per 1M tokens', '每百万 token 成本'); a size per tokens is not one."""
    return bool(re.search(PER_TOKEN_COST, re.sub(_SIZE_PER_TOKENS, " ", text)))


PER_TOKEN_COST = (r"(?:每|/)\s*(?:百万|1m|m|千|1k)\s*(?:个)?\s*(?:输出\s*)?token|token\s*成本|(?:按|每个?)\s*token\s*(?:算)?.{0,4}(?:便宜|划算|成本)|" +
                  w(r"per (?:1m|million|1k|thousand|m) (?:output )?tokens?|\$/m(?:tok)?|cost per token|throughput per dollar|"
                    r"(?:cheap\w*|expensive|costs?) per (?:output )?token|"
                    r"tokens? per dollar|perf(?:ormance)? per dollar|per 1m"))


# what a run's logs or the user measured (OWN_MEASUREMENT), and the words that show a figure a run reached
_ACHIEVED = OWN_MEASUREMENT + r"|日志|log|显示|测得|跑到|跑出|监控|" + w(r"we're getting|achiev\w*|sustain\w*|shows?|reports?|logged")


_AT_CONC = (r"(?:并发|concurrency)\s*(?:数|为|是|=|:|：)?\s*(\d+)\s*(?:路|个)?\s*(?:时|的时候|下|情况下|(?=[，,、]))|(\d+)\s*(?:路|个)?\s*并发\s*"
            r"(?:时|的时候|下|情况下|(?=(?:的|，|,)?\s*(?:总|合计|整体)?\s*(?:输出)?\s*(?:吞吐|throughput)))|" + w(r"at\s+(\d+)\s+(?:concurrent|simultaneous|parallel|in[\s-]flight)(?:\s+(?:requests|users|"
                                           r"streams|sequences))?|with\s+(\d+)\s+(?:concurrent|parallel)\s+(?:requests|users)|"
                                           r"concurrency\s+(?:of\s+)?(\d+)|"
                                           r"(\d+)\s+(?:concurrent|simultaneous|parallel|in[\s-]flight)\s+(?:requests|streams|"
                                           r"sequences)(?=[^.;?!]{0,40}?(?:->|→|=>|:|gives?|got|gets?|yields?|we see)\s*~?\s*\d)"))


def measured_concurrency(text: str) -> tuple[int, tuple[int, int]] | None:
    """The load a measured throughput was taken at ('并发 32 时总吞吐 1100 tokens/s', '2,400 tok/s at 64 concurrent
    requests'), when a measurement is written in the same sentence: the condition of the benchmark, not the load to
    serve. With where it is written."""
    for sent in re.finditer(r"[^。？?!！；;\n]+", text):
        part = sent.group(0)
        if not (re.search(OWN_MEASUREMENT, part) and re.search(TPS_RATE, part)):
            continue
        m = re.search(_AT_CONC, part)
        if m:
            v = int(next(g for g in m.groups() if g))
            if 1 <= v <= 100_000:
                return v, (sent.start() + m.start(), sent.start() + m.end())
    return None


def achieved_tflops(text: str) -> float | None:
    """TFLOPS per GPU a run reached, as its logs show ('日志里每卡 TFLOPS 显示 420 左右', 'we see ~380 TFLOPS/GPU in
    wandb', 'achieving 400 TFLOPS per GPU'): the run's own efficiency, not the card's peak."""
    m = re.search(rf"(?:{_ACHIEVED})[^。？?!\n]{{0,24}}?(\d+(?:\.\d+)?)\s*t(?:flops|ops)(?![a-z])", text) or \
        re.search(rf"(?:{_ACHIEVED})[^。？?!\n\d]{{0,16}}t(?:flops|ops)[^。？?!\n\d]{{0,12}}?(\d+(?:\.\d+)?)", text) or \
        re.search(rf"t(?:flops|ops)[^。？?!\n\d]{{0,8}}?(?:{_ACHIEVED})[^。？?!\n\d]{{0,8}}?(\d+(?:\.\d+)?)", text)
    if m and 0 < float(m.group(1)) <= 100_000:
        return float(m.group(1))
    return None


def peak_tflops(text: str) -> dict:
    """A card's compute the user says to use: '910B 算力按 FP16 313 TFLOPS 算', 'assume 280 TFLOPS per GPU'."""
    if achieved_tflops(text):
        return {}  # (a run's logged TFLOPS is its efficiency: read by the MFU)
    m = re.search(r"(?:按|算力|assum\w*|use|using|taking|take|at|with|取)[^0-9。？?!\n]{0,16}?(\d+(?:\.\d+)?)\s*t(?:flops|ops)(?![a-z])",
                  text) or re.search(r"(\d+(?:\.\d+)?)\s*t(?:flops|ops)(?![a-z])\s*(?:算|计算|为准|per (?:gpu|card)|each|每卡)", text)
    if m and 0 < float(m.group(1)) <= 100_000:
        return {"peak_tflops": float(m.group(1))}
    return {}


TPS_RATE = (r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k)?\s*(?:个\s*)?(?:output\s+|generated\s+|generation\s+|decode\s+|输出\s*|生成\s*|总\s*)?"
        r"(?:tokens?|toks?|t)\s*(?:/|per|每)\s*(?:s|sec|second|秒)(?![a-z])")
_PER_USER_AFTER = (r"^[^.?!。？；;]{0,12}?(?:(?<![a-z])(?:each|per[\s-]*(?:user|person|stream|request|seat|session|sequence|"
                   r"client))(?![a-z])|/\s*(?:user|人|用户|路)|每(?:个)?(?:人|用户|路|请求|序列))")
_PER_USER_BEFORE = (r"(?:(?<![a-z])(?:each|every|per)[\s-]+(?:user|person|stream|request|seat|session|sequence|client)\w*"
                    r"[^.?!。？]{0,20}|每(?:个)?(?:人|用户|路|请求|序列)[^。？，,]{0,10}|单(?:个)?用户[^。？，,]{0,10}|至少\s*|不低于\s*|"
                    r"(?<![a-z])at least\s*|≥\s*|>=\s*)$")
SINGLE_STREAM = (r"batch\s*(?:size)?\s*(?:=|of|为|是)?\s*1(?!\d)|bs\s*=?\s*1(?!\d)|single[\s-]*stream|one stream|单路|单并发|单请求|"
                 r"(?<![a-z])(?:a\s+)?single[\s-]*(?:request|user|sequence|prompt)(?![a-z])|(?<![a-z])one (?:request|user) at a time")
NEEDED = (r"(?<![a-z])(?:need|needs|require\w*|target|must|want|reach|hit)(?![a-z])|"
          r"(?<![a-z])peak(?:s| load| traffic| demand| throughput)?\s*(?:will be|would be|is|of|at|around|hits|reaches|=|:)?\s*"
          r"(?:about|around|roughly|~|approx\.?)?\s*$|需要|要求|目标|希望|要做到|做到|达到|撑住|扛住|支撑|"
           r"(?:高峰|峰值|顶峰|最高|忙时)\s*(?:时|期)?\s*(?:要|得|需|大概|约)")


def tps_value(m: re.Match) -> float:
    """The tokens/s a TPS_RATE match states ('2,400 tok/s' -> 2400, '1.5k tokens/s' -> 1500)."""
    return float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1)


_MEASURED = r"测|measured|benchmark|sustain|实测|压测|we get|we see"


# a rate with the time first or in words: '每秒 1000 万 token 输出', '10 million tokens per second', '2.5万 token每秒'
_RATE_WORDS = (r"(?:每秒(?:钟)?\s*(?:要|能|得)?\s*(?:输出|生成|处理|吐)?\s*(\d+(?:\.\d+)?)\s*(万|亿|千|k|m|million|thousand)?\s*"
               r"(?:个\s*)?(?:tokens?|toks?))|"
               r"(?:(\d+(?:\.\d+)?)\s*(万|亿|千|k|m|million|thousand|billion|b)\s*(?:个\s*)?(?:output\s+|输出\s*)?(?:tokens?|toks?)"
               r"\s*(?:/|per|a|每)\s*(?:s|sec|second|秒)(?![a-z]))")
_RATE_MAG = {None: 1, "": 1, "k": 1e3, "千": 1e3, "thousand": 1e3, "万": 1e4, "m": 1e6, "million": 1e6, "亿": 1e8,
             "b": 1e9, "billion": 1e9}


# 'if we actually hit ~1,500 tok/s', '假设能跑到 1500 tok/s': a rate supposed achieved (what the cost is worked at), not a
# load to carry
ACHIEVED_IF = (r"(?<![a-z])(?:if|when|assuming|suppose|say)\s+(?:we|it|they|you|i|the (?:box|card|gpu|server))\s+(?:\w+\s+){0,2}?"
                r"(?:hit|hits|get|gets|reach|reaches|achieve|achieves|sustain|sustains|manage|do|does|average|run at)\s+"
                r"(?:about |around |roughly |~|≈)?\s*$|(?:如果|假设|假如|要是)(?:能|真能|实际)?(?:跑到|达到|做到|跑出)\s*(?:大约|约|~)?\s*$")


def _total_rates(text: str):
    """Each rate written in the text that is not one user's speed nor a single stream's, as (match, text before,
    text after, value in tok/s, whether it is a load to reach rather than one measured or stated)."""
    found = [(m, tps_value(m)) for m in re.finditer(TPS_RATE, text)]
    found += [(m, float(m.group(1) or m.group(3)) * _RATE_MAG[m.group(2) or m.group(4)])
              for m in re.finditer(_RATE_WORDS, text)
              if not any(x.start() <= m.start() < x.end() or m.start() <= x.start() < m.end() for x, _ in found)]
    for m, value in sorted(found, key=lambda mv: mv[0].start()):
        before, after = text[max(0, m.start() - 60):m.start()], text[m.end():m.end() + 30]
        clause = re.split(r"[，,。;；]|(?<=[a-z0-9])\.\s", before)[-1]  # ('实测 2400 tok/s，高峰要 5 万': the measurement is another clause's)
        if re.search(_PER_USER_AFTER, after) or re.search(_PER_USER_BEFORE, before[-30:]) or \
                re.search(SINGLE_STREAM, clause[-40:] + " " + re.split(r"[，,。;；]", after)[0][:16]):
            continue  # ('单路 decode 25 tok/s，100 并发总吞吐 1800 tok/s': the single stream is the clause before's)
        needed = bool(re.search(NEEDED, before[-20:])) and not re.search(_MEASURED, clause) and \
            not re.search(ACHIEVED_IF, before[-50:])
        if not needed and re.search(COUNT_ASK + r"|(?<![a-z])how many(?![a-z])", text) and re.search(r"(?:(?<![a-z])(?:at|@|for|with|of)|达到|到)\s*(?:~|about |"
                                                                   r"around |roughly |约|大约)?$", before) and \
                re.search(r"total|aggregate|throughput|output|吞吐|总|合计|输出", m.group(0) + " " + after[:20] + before[-12:]) \
                and not re.search(_MEASURED + "|" + QUOTED_SOURCE + r"|quoted|宣传", before):
            needed = True  # 'how many H100s for Llama 3.1 70B at 10k tok/s total output?': the load the count is for
        yield m, before, after, value, needed


def single_stream_rate(text: str) -> float | None:
    """A speed written as one stream's ('the batch-1 number (~150 tok/s)', '单路 25 tok/s'): not a GPU's capacity."""
    for m in re.finditer(TPS_RATE, text):
        clause = re.split(r"[，,。;；]|(?<=[a-z0-9])\.\s", text[max(0, m.start() - 60):m.start()])[-1]
        if re.search(SINGLE_STREAM + r"|batch[\s-]*1(?!\d)", clause[-40:] + " " + text[m.end():m.end() + 16]):
            return tps_value(m)
    return None


def needed_rate(text: str) -> tuple[float, tuple[int, int]] | None:
    """A total throughput to reach ('要做到 20000 tok/s 的输出吞吐', 'we need to serve 5,000 tok/s'), with where it is
    written: a load the GPUs must carry, not a rate anyone measured and not one user's speed."""
    for m, _, _, v, needed in _total_rates(text):
        if needed and 0 < v <= 1e8:
            return v, (m.start(), m.end())
    return None


_PER_UNIT = (r"单卡|每张卡|每卡|单张|每个实例|单实例|一个实例|/\s*(?:gpu|card|卡)(?![a-z])|(?<![a-z])(?:per|each|a|one|single)[\s-]+(?:gpu|card|instance)(?![a-z])|"
             r"(?<![a-z])per[\s-]instance|(?<![a-z])an instance(?![a-z])")
_PER_NODE = r"(?<![a-z])(?:node|box|server|machine)(?![a-z])|整机|一台|每台|整台|单机|(?:8|八)卡机"


def throughput(text: str) -> dict:
    """A stated throughput, its scope and whether a cost per token is asked (see throughput_with_span)."""
    return throughput_with_span(text)[0]


def throughput_with_span(text: str) -> tuple[dict, tuple[int, int] | None]:
    """A throughput the user measured or states ('2,500 tokens/s aggregate', '吞吐 12000 token/s', 'sustains 5,000
    output tok/s in our benchmark', '实测单卡总吞吐 900 tok/s', '1,100 output tok/s per instance') with what it covers
    (one GPU or instance, one server, or all the GPUs named), and whether a cost per token is asked. Not a per-user
    rate ('30 tok/s each': a target), not a single stream's speed ('batch=1 ... 22 tok/s': a quoted figure), not a
    load to reach ('we need 5000 tok/s'). With where the rate is written."""
    out: dict = {}
    span = None
    for m, before, after, v, needed in _total_rates(text):
        if needed or not 0 < v <= 1e8:
            continue
        out["throughput_tokens_per_s"] = v
        span = (m.start(), m.end())
        scope_text = re.sub(r"(?:/|每)\s*(?:卡|张|gpu|card)\s*[-·/]?\s*(?:小时|时|hours?|hr|h)(?![a-z])|卡时|卡·时|gpu[\s-]*hours?",
                            " ", before[-40:] + " " + after[:24])  # ('¥7/卡/小时' is a price's unit, not the rate's scope)
        if re.search(_PER_NODE, before[-14:]):  # '整机输出吞吐 3200': the word next to the rate decides
            out["throughput_scope"] = "node"
        elif re.search(_PER_UNIT, scope_text):
            out["throughput_scope"] = "gpu"
        elif re.search(_PER_NODE, before + " " + after[:24]):
            out["throughput_scope"] = "node"
        break
    if per_token_cost(text):
        out["per_token_cost"] = True
    return out, span


VOLUME_MAG = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9,
               "万": 1e4, "亿": 1e8, "千万": 1e7, "百万": 1e6, "十亿": 1e9, "万亿": 1e12}
_DAY = r"(?:per|a|/|each)\s*day|daily|every day|每天|每日|日均|一天|/天|天均"
_MONTH = r"(?:per|a|/|each)\s*month|monthly|every month|每月|每个月|月均|一个月|/月"
_HOUR = r"(?:per|an|a|/|each)\s*(?:hour|hr|h)(?![a-z])|hourly|every hour|每小时|每个小时|一小时|/小时"
_VOL = (r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(thousand|million|billion|bn|mn|k|m|b|千万|百万|十亿|万亿|万|亿)?\s*(?:个\s*)?"
        r"(?:output\s+|generated\s+|输出\s*|生成\s*|的\s*)?(?:tokens?|toks?|token)(?![a-z])(?!\s*/\s*(?:s|sec|second|秒)(?![a-z]))")


def price_unit_at(text: str, at: int) -> bool:
    """Whether the number at `at` is a price's unit ('$2.50 per 1M input', '每百万'), not a volume of tokens."""
    return re.search(r"(?:(?<![a-z])per|/|每|一)\s*$", text[max(0, at - 6):at]) is not None


_PRICE_PER_HOUR = (r"(?:[$¥￥]\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*(?:元|块|美元|usd|dollars?))\s*(?:/|per|每|一)\s*"
                   r"(?:gpu[\s-]*|卡\s*/?\s*)?(?:hr|hour|h|小时)(?![a-z])")


def token_volume(text: str) -> tuple[dict, tuple[int, int] | None]:
    """Tokens a service makes a day or a month ('每天 3 亿 output token', '3 billion output tokens monthly',
    'Monthly traffic is 3 billion output tokens', '日均 2000 万 token') as tokens_per_day (a month is 730 h), and a peak
    over the average ('峰值是平均的 3 倍', 'peak is 3x the average'); with where the volume is written."""
    out: dict = {}
    span = None
    for m in re.finditer(_VOL, text):
        if price_unit_at(text, m.start()):
            continue  # 'cost per 1M output tokens': the unit of a price, not a volume
        # (the sentence the volume is in: '总共要生成 50 亿 token。租 4090 是 2 元/小时' is a one-off total, the hour a price's)
        before = re.split(r"[。；;!?？！\n]", text[max(0, m.start() - 30):m.start()])[-1]
        after = re.split(r"[。；;!?？！\n]|\.\s", text[m.end():m.end() + 24])[0]
        around = before + " | " + after
        unpriced = re.sub(_PRICE_PER_HOUR, " ", after)  # ('2B tokens: A100 $1.6/hr': the hour is the price's)
        per = "day" if re.search(_DAY, around) else "month" if re.search(_MONTH, around) else \
            "hour" if re.search(_HOUR, unpriced[:16] + " | " + before[-12:]) else None
        if per is None:
            continue
        if re.search(r"(?:每次|每个请求|每条|每轮|单次|一次)\s*(?:的)?\s*(?:输入|输出|请求)?\s*(?:约|大概|大约|平均)?\s*$|"
                     r"(?<![a-z])(?:each|per|every) (?:request|call|query|prompt|conversation)\w*\s*(?:is|of|has|at|~|about|around)?\s*$",
                     before):
            continue  # ('日均 20 万次请求，每次输入约 3k token'): one request's length, not the day's volume
        v = float(m.group(1).replace(",", "")) * VOLUME_MAG.get(m.group(2) or "", 1)
        if v < 1000:
            continue
        # ('10M output tokens per hour': a rate held all day, so a day of it; a peak hour is read as the peak itself)
        out["tokens_per_day"] = v if per == "day" else v * 24 if per == "hour" else v / (730 / 24)
        if re.search(r"output|generated|输出|生成", m.group(0)):
            out["volume_is_output"] = True  # ('34M output tokens a day': what the GPUs generate, the input beside it)
        span = (m.start(), m.end())
        break
    m = re.search(r"(?:峰值|高峰)[^，。,.；;]{0,10}?(?:是|为|约|达到|可达|能到)?\s*(?:平均|均值|日均)?[^，。,.；;0-9]{0,6}?(\d+(?:\.\d+)?)\s*倍", text) or \
        re.search(w(r"peak[^,.;]{0,24}?(\d+(?:\.\d+)?)\s*(?:x|×|times)"), text) or \
        re.search(w(r"(\d+(?:\.\d+)?)\s*(?:x|×|times)\s*(?:the\s+)?(?:average\s+)?(?:at\s+)?peak"), text)
    if m and 1 <= float(m.group(1)) <= 100:
        out["peak_factor"] = float(m.group(1))
    return out, span


# the answer must be a number of cards: 'how many L40S', '要几张', '需要多少台'
# 'what MFU do we need?', 'MFU 要达到多少': the utilization a deadline asks for, not one the user states
MFU_ASK = (r"(?:需要|要|得)\s*(?:达到|到)?\s*多少\s*(?:的)?\s*(?:mfu|算力利用率|利用率)|(?:mfu|算力利用率|利用率)\s*(?:要|需要|得)\s*(?:达到|到)?\s*多少|"
           + w(r"(?:what|which|how much|how high(?: an?)?)\s+(?:an?\s+)?(?:mfu|utili[sz]ation|efficiency)|"
               r"(?:mfu|utili[sz]ation|efficiency)\s+(?:do|would|will|should|must)\s+(?:we|i|you)|required mfu|mfu required|"
               r"mfu (?:is )?needed|need(?:ed)? (?:an? )?mfu"))
COUNT_ASK = (r"几张|几块|几台|多少张|多少块|多少台|多少卡|几卡|最少要?几|至少要?几|最少要?多少|至少要?多少|" +
             w(r"min(?:imum)?\s+(?:number|count|no\.?)\s+of|fewest|min(?:imum)?\s+(?:gpus?|cards?|nodes?)") + "|" +
             w(r"how many (?:\w+[\s-]?)?(?:gpus?|cards?|nodes?|servers?|"
             r"a100s?|h100s?|h200s?|h20s?|h800s?|l40s|l40ses|4090s?|5090s?|3090s?|mi300xs?|910bs?)"))


# Clouds named for a rental price, as the price table's provider fields spell them.
PROVIDERS = [("AWS", w(r"aws|amazon(?: web services)?|ec2")), ("Azure", w("azure")),
             ("Google Cloud", w(r"gcp|google cloud")), ("Lambda", w(r"lambda(?: labs| cloud)?")),
             ("RunPod", w("runpod")), ("CoreWeave", w("coreweave")), ("Nebius", w("nebius")),
             ("Vast.ai", w(r"vast(?:\.ai)?")), ("Hyperstack", w("hyperstack")), ("AutoDL", w("autodl")),
             ("Alibaba Cloud", r"阿里云|" + w(r"alibaba(?: cloud)?|aliyun"))]


def provider(text: str) -> dict:
    """The cloud a rental price is asked on: 'on AWS', 'Lambda vs AWS' (the first named), '在阿里云上租'."""
    found = sorted((m.start(), name) for name, pat in PROVIDERS for m in [re.search(pat, text)] if m)
    return {"provider": found[0][1]} if found else {}


def batch_output_tokens(text: str) -> dict:
    """An offline job's output in all: '离线批量推理 … 总共要生成 50 亿 token', 'batch job: generate 5B tokens in total'
    (no period: a volume per day or month is a service's load, token_volume's)."""
    if not has(r"离线|批量|批处理|一次性|" + w(r"offline|batch|one[\s-]?off|bulk"), text) or \
            not has(r"生成|推理|输出|" + w(r"generat\w*|inference|output"), text) or has(FINETUNE_CUE, text):
        return {}
    vol, _ = token_volume(text)
    if vol.get("tokens_per_day"):
        return {}
    for m in re.finditer(_VOL, text):
        if price_unit_at(text, m.start()):
            continue
        v = float(m.group(1).replace(",", "")) * VOLUME_MAG.get(m.group(2) or "", 1)
        if v >= 1e6:
            return {"batch_output_tokens": v}
    return {}


def batch_items(text: str) -> dict:
    """An offline inference job: 'inference over 10 million documents', '处理 100 万条数据', 'summarize 50k articles'."""
    if not has(r"推理|处理|生成|摘要|总结|分类|打标|翻译|跑完|跑一遍|过一遍|" + w(
            r"inference|infer|summari[sz]\w*|classif\w*|label\w*|translat\w*|process\w*|run (?:it |them )?(?:over|on|through)|"
            r"batch|push\w* (?:\w+ ){0,4}through|feed\w* (?:\w+ ){0,4}(?:through|into)|get (?:\w+ ){0,3}through|"
            r"chew (?:\w+ ){0,3}through"), text):
        return {}
    things = w(r"documents?|docs?|articles?|pages?|records?|rows?|prompts?|queries|questions|emails?|tickets?|reviews?|"
               r"files?|items?|texts?")
    for m in re.finditer(rf"({NUM})\s*({MAG})?\s*(?:个|篇|份|条)?\s*(?:{things}|文档|文章|数据|记录|问题|样本|评论|邮件)", text):
        if not to_number(m.group(1)):
            continue
        if re.match(r"\s*k\s*(?:token\s*)?(?:prompts?|queries|questions|texts?)", text[m.end(1):m.end(1) + 12]) and \
                re.search(r"~|about|around|avg|average|each|long|的|每|/", text[max(0, m.start() - 12):m.start()] + m.group(0)
                          + text[m.end():m.end() + 4]):
            continue  # ('RAG with ~8k prompts', '~1.5k prompt / ~300 output': each prompt's length, not 8,000 prompts)
        n = magnitude(to_number(m.group(1)), m.group(2))
        if n >= 1000:
            return {"batch_items": int(n)}
    return {}


# a comparison of speed ('faster', '快多少', 'how much quicker')
COMPARATIVE = (r"快多少|慢多少|快几倍|慢几倍|更快|哪个快|差多少|差距多大|差别多大|差几倍|" +
               w(r"faster|slower|speed[\s-]?up|quicker|how much (?:of a )?difference|how different"))



# a speed ratio the user states for one option over another: '~3x faster', '2.5 times as fast', 'a 2.2x speedup',
# '快 2.5 倍', '速度是 A100 的 3 倍', '提速 2 倍'
_RATIO = r"(\d+(?:\.\d+)?)"
SPEEDUP_PATTERNS = (
    w(_RATIO + r"\s*(?:x|×|times)\s*(?:as fast|faster|quicker|the speed|the throughput|more throughput|higher throughput|"
               r"speed[\s-]?up)"),
    w(r"speed[\s-]?up (?:of|is|at|around|about|~)?\s*~?\s*" + _RATIO + r"\s*(?:x|×|times)?"),
    r"(?:快了?|提速|加速|速度快)\s*(?:约|大约|大概|将近|差不多|近)?\s*~?\s*" + _RATIO + r"\s*倍",
    r"(?:速度|吞吐|性能|训练速度)\s*(?:大概|大约|约)?是[^，。,.；;？?]{0,16}?的\s*" + _RATIO + r"\s*倍",
    r"加速比\s*(?:约|大约|大概|是|为)?\s*" + _RATIO,
)


def speedup(text: str) -> tuple[float, int, int] | None:
    """A stated speed ratio (value, start, end of the phrase); None when none is stated or it is not above 1."""
    for p in SPEEDUP_PATTERNS:
        m = re.search(p, text)
        if m:
            v = float(m.group(1))
            if 1 < v <= 1000:
                return v, m.start(), m.end()
    return None


# a tensor-parallel size as written: 'TP=3', 'tp 4', 'TP8', '--tensor-parallel-size 8', '8-way TP', '张量并行 4' (the size
# in the first group that matched); 'TP8' and 'PP4' are written without a space: no letter may follow the word, a digit may
TP_SIZE = re.compile(r"(?<![a-z0-9])(?:tp|tensor[\s-]*parallel(?:ism)?(?:[\s-]*(?:size|degree))?|--tensor-parallel-size)"
                     r"(?![a-z])\s*(?:=|of|:|为|是|size)?\s*(\d{1,4})(?![\d.])|(\d{1,4})[\s-]*way[\s-]*(?:tp|tensor)|"
                     r"张量并行\s*(?:=|为|是|:|：)?\s*(\d{1,4})")


def tp_size(m: re.Match) -> int:
    return int(next(g for g in m.groups() if g))


# no tensor parallelism: each GPU holds the whole model ('no TP', 'without tensor parallel', 'each card runs its own copy',
# '不开 TP', '不用张量并行', '每张卡单独一个实例')
NO_TP = (r"(?:不(?:开|用|做|想用|能用|要)|没有|无|禁用|关掉)\s*(?:tp|张量并行|tensor[\s-]*parallel\w*)|"
         r"每张卡(?:各|单独)?(?:跑|部署|起)?\s*(?:一个|一份|1个)\s*(?:实例|副本|模型)|单卡(?:单|一)?实例|" +
         w(r"(?:no|not|without|can't use|cannot use|don't want|avoid|no use of)\s+(?:any\s+)?(?:tp|tensor[\s-]*parallel\w*)|"
           r"(?:tp|tensor[\s-]*parallel\w*)\s+(?:is\s+)?(?:not (?:allowed|an option|possible)|off the table|disabled)|"
           r"each (?:card|gpu) (?:runs|serves|holds|gets|hosts) (?:its own|a full|a whole|one|the whole) (?:copy|replica|model|instance)|"
           r"one (?:replica|instance|copy) per (?:card|gpu)"))


_SPAN = r"(\d+(?:\.\d+)?)\s*(h|hrs?|hours?|min|mins?|minutes?|s|secs?|seconds?|小时|分钟|秒)(?![a-z])"
_TO_MIN = {"h": 60, "hr": 60, "hrs": 60, "hour": 60, "hours": 60, "小时": 60, "min": 1, "mins": 1, "minute": 1,
           "minutes": 1, "分钟": 1, "s": 1 / 60, "sec": 1 / 60, "secs": 1 / 60, "second": 1 / 60, "seconds": 1 / 60, "秒": 1 / 60}


def training_overheads(text: str) -> dict:
    """Time a run loses besides its compute: blocking checkpoints ('checkpoint every 2h takes 10 min', '每 2 小时存一次
    checkpoint，每次 10 分钟') and failures ('budget 5% of time lost to failures/restarts', '故障重启按 5% 算')."""
    out: dict = {}
    m = re.search(r"checkpoint\w*[^.;。；]{0,12}?every\s+" + _SPAN + r"[^.;。；]{0,30}?(?:takes?|costs?|blocks?|stalls?|of|,|，)\s*"
                  r"(?:about|~|around)?\s*" + _SPAN, text) or \
        re.search(r"每\s*" + _SPAN + r"\s*(?:存|保存|做|写)(?:一次)?\s*(?:checkpoint|ckpt|检查点)[^。；]{0,12}?(?:每次|要|需要|耗时|花)?\s*"
                  + _SPAN, text)
    if m:
        every, took = float(m.group(1)) * _TO_MIN[m.group(2)], float(m.group(3)) * _TO_MIN[m.group(4)]
        if 0 < took < every:
            out["checkpoint_stall"] = round(took / every, 4)
    m = re.search(r"(\d+(?:\.\d+)?)\s*%[^.;。；]{0,30}?(?:fail\w*|restart\w*|downtime|interrupt\w*|crash\w*|故障|重启|宕机|中断)", text) or \
        re.search(r"(?:fail\w*|restart\w*|downtime|interrupt\w*|crash\w*|故障|重启|宕机|中断)[^.;。；]{0,24}?(\d+(?:\.\d+)?)\s*%", text)
    if m and 0 < float(m.group(1)) < 50:
        out["time_lost"] = float(m.group(1)) / 100
    return out


def tensor_parallel(text: str) -> dict:
    """A tensor-parallel size asked for: 'TP=3', 'tp 4', '--tensor-parallel-size 8', '8-way tensor parallel', '张量并行 4'."""
    m = TP_SIZE.search(text)
    out = {"tensor_parallel": tp_size(m)} if m and 1 <= tp_size(m) <= 1024 else {}
    if not out and re.search(NO_TP, text):
        out["tensor_parallel"] = 1  # 'no TP, each card runs its own copy': replicas of one GPU each
    pp = re.search(r"(?<![a-z0-9])(?:pp|pipeline[\s-]*parallel(?:ism)?(?:[\s-]*size)?|--pipeline-parallel-size)(?![a-z])"
                   r"\s*(?:=|of|:|为|是|size)?\s*(\d{1,3})(?![\d.])", text) or re.search(r"流水线并行\s*(?:=|为|是|:|：)?\s*(\d{1,3})", text)
    if pp and 1 <= int(pp.group(1)) <= 256:
        out["pipeline_parallel"] = int(pp.group(1))
    ep = re.search(r"(?<![a-z0-9])(?:ep|expert[\s-]*parallel(?:ism)?(?:[\s-]*size)?|--expert-parallel-size|--ep)(?![a-z])"
                   r"\s*(?:=|of|:|为|是|size)?\s*(\d{1,4})(?![\d.])", text) or \
        re.search(r"专家并行\s*(?:=|为|是|:|：)?\s*(\d{1,4})", text)
    if ep and 1 <= int(ep.group(1)) <= 1024:
        out["expert_parallel"] = int(ep.group(1))  # ('ZeRO-1 + EP8': a layout, not a budget of 8)
    return out


# --- vendors ruled out or required -----------------------------------------------------------------------------------
_VENDOR_WORDS = {"NVIDIA": r"nvidia|英伟达|n\s*卡|老黄", "AMD": r"(?<![a-z])amd(?![a-z])|mi3\d\dx?|instinct|a\s*卡",
                 "Huawei": r"华为|昇腾|升腾|ascend|huawei|910b"}
_NO = (r"(?:(?<![a-z])(?:no|not|non|without|exclude|excluding|avoid|except|other than|anything but|can't use|cannot use|"
       r"can't buy|cannot buy|won't|ban(?:ned)?)(?![a-z])[\s-]*(?:an?\s+|any\s+)?|不(?:能|要|用|买|考虑|想|准|许|让)"
       r"\s*(?:再)?\s*(?:买|用|采购|折腾|考虑|碰)?\s*|非|禁(?:用|止)?|排除|除了?)")
_NO_AFTER = r"\s*(?:is|are)?\s*(?:not allowed|excluded|banned|off the table|out|is a no)|(?:的卡)?\s*(?:不能|不让|不许|不准|不行|免谈)"
_ONLY_OTHER = r"以外的|之外的|以外|之外"  # '不能买英伟达以外的': only NVIDIA
_DOMESTIC = r"国产化|国产卡|国产算力|国产芯片|信创|自主可控|只能(?:用|买)国产"


_CARD_JOIN = r"\s*(?:/|、|,|，|和|与|及|or|and|&|\+)\s*"
_CARD_OUT_AFTER = (r"^\s*(?:这些|这几种|这几款|这类|这几个|等)?\s*(?:都|全)?\s*(?:买不到|搞不到|拿不到|弄不到|用不了|不能(?:买|用)|不让(?:买|用)|"
                   r"不考虑|不想碰|不碰|禁运|没货|缺货|没有货|免谈|排除)|^\s*(?:(?:is|are)\s+)?(?:not available|unavailable|"
                   r"out of stock|off the table|not an option|ruled out|banned)|^\s*(?:are\s+)?(?:impossible|hard) to (?:get|buy|find)")
_CARD_OUT_BEFORE = (r"(?:(?<![a-z])(?:no|not|without|except|excluding|avoid|can't get|cannot get|can't buy|cannot buy|"
                    r"can't use|cannot use|rule out|other than)(?![a-z])\s*(?:the\s+|any\s+)?|不能买|不能用|不考虑|不用|除了|排除|没有)\s*$")


QUIET = (r"不想太吵|别太吵|安静|静音|低噪|噪音小|功耗(?:别|不要|不能|不想)?太?大|功耗低|低功耗|省电|" +
         w(r"quiet(?:-ish)?|silent|low[\s-]?noise|low[\s-]?power|power[\s-]?efficient|fanless|not too loud"))


def cards_ruled_out(text: str, spans: list) -> list[str]:
    """Cards named as out of reach: 'H100/H800/A800 这些买不到', 'we can't get H100s', 'no A100, please': each card of the
    group (cards joined by '/', '、', 'and', 'or') the words rule out. [] when none is."""
    spans = sorted({sp[:2]: sp for sp in spans}.values())
    groups: list[list] = []
    for sp in spans:
        if groups and re.fullmatch(_CARD_JOIN + r"|\s*", text[groups[-1][-1][1]:sp[0]]):
            groups[-1].append(sp)
        else:
            groups.append([sp])
    out: list[str] = []
    for g in groups:
        after = text[g[-1][1]:g[-1][1] + 24]
        after = re.sub(r"^s?\s*(?:\d+\s*g[b]?|sxm\d?|pcie|nvl)?", "", after)  # 'H100s', 'A800 80G'
        before = text[max(0, g[0][0] - 16):g[0][0]]
        if re.search(_CARD_OUT_AFTER, after) or re.search(_CARD_OUT_BEFORE, before):
            out += [sp[2] for sp in g if sp[2] not in out]
    return out


def vendors(text: str) -> dict:
    """Vendors ruled out ('no NVIDIA', '不能买英伟达的', '不想折腾昇腾') or required ('国产化': Huawei; '不能买英伟达以外的':
    NVIDIA only). A statement the user corrects ('……不对，是不能买英伟达的') is overridden by the last one."""
    said: list[tuple[int, str, str]] = []  # (where, 'no' | 'only', vendor)
    for vendor, pat in _VENDOR_WORDS.items():
        for m in re.finditer(rf"{_NO}(?:{pat})(?!\s*(?:{_ONLY_OTHER}))|(?:{pat})(?:{_NO_AFTER})", text):
            said.append((m.start(), "no", vendor))
        for m in re.finditer(rf"{_NO}(?:{pat})\s*(?:{_ONLY_OTHER})", text):
            said.append((m.start(), "only", vendor))
    for m in re.finditer(_DOMESTIC, text):
        said.append((m.start(), "only", "Huawei"))
    if not said:
        return {}
    out: dict = {"exclude_vendors": [], "only_vendors": []}
    for _, kind, vendor in sorted(said):  # later statements win ('……不对，是……')
        for key, other in (("exclude_vendors", "only_vendors"), ("only_vendors", "exclude_vendors")):
            if (kind == "no") == (key == "exclude_vendors"):
                if vendor not in out[key]:
                    out[key].append(vendor)
                if vendor in out[other]:
                    out[other].remove(vendor)
    return {k: v for k, v in out.items() if v}


# --- power available ---------------------------------------------------------------------------------------------------
_KW = (r"(\d+(?:\.\d+)?)\s*(kw|千瓦|w|瓦)(?![a-z])")
_POWER_CONTEXT = r"power|rack|circuit|outlet|机柜|供电|配电|电力|电量|available|budget|cap|limit|only"
_OUTLET = (r"(\d{1,2})\s*(?:a|amps?|安)(?![a-z])[^.。\n]{0,20}?(\d{3})\s*(?:v|volts?|伏)(?![a-z])|"
           r"(\d{3})\s*(?:v|volts?|伏)(?![a-z])[^.。\n]{0,20}?(\d{1,2})\s*(?:a|amps?|安)(?![a-z])")


_RACK_CONTEXT = r"rack|space|机柜|空间|机位|left|free|spare|only|available|剩|只有|最多|以内|之内|上限"


def rack_space(text: str) -> dict:
    """Rack space available: 'we only have 4U of rack space', '机柜只剩 6U', 'a half rack (21U)'. A server's own height
    ('a 4U server') is not a limit: it needs a word of space."""
    for m in re.finditer(r"(?<![\w.])(\d{1,3})\s*u(?![a-z0-9])", text):
        near = text[max(0, m.start() - 30):m.end() + 25]
        if not re.search(_RACK_CONTEXT, near) or re.search(r"\d\s*u\s*(?:server|chassis|box|机箱|服务器|的服务器)", 
                                                           text[m.start():m.end() + 12]) and not re.search(
                r"only|left|free|spare|剩|只有|最多|以内|上限", near):
            continue
        units = int(m.group(1))
        if 1 <= units <= 200:
            return {"rack_units": units}
    return {}


# an input:output ratio written with its numbers first ('about 3:1 input to output', '3:1 的输入比输出')
RATIO_FIRST = (r"(?<![\d.:])(\d+(?:\.\d+)?)\s*[:：]\s*(\d+(?:\.\d+)?)\s*(?:的)?\s*(?:输入|input|prompt)s?\s*(?:[:：/]|to|比|vs\.?)\s*"
               r"(?:输出|output|completion)")


# input tokens per output token written as a count ('~3 input tokens per output token', '每个输出 token 约 3 个输入 token')
RATIO_PER = (r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:x\s*)?(?:input|prompt|输入)\s*(?:tokens?|个?\s*token)?\s*(?:per|for (?:each|every)|to "
             r"(?:each|every|one|1)|/|每)\s*(?:1\s*)?(?:output|completion|generated|输出)\s*(?:tokens?|token)?|"
             r"每(?:个)?\s*输出\s*token\s*(?:约|大约|大概)?\s*(?:对应)?\s*(\d+(?:\.\d+)?)\s*个?\s*输入")


def gpu_power(text: str) -> dict:
    """Each GPU's draw and the rest of the server's share, as the user states them ('power 400 W/GPU + 30% server
    overhead', '每卡 350W，整机另加 20%')."""
    out: dict = {}
    whole = re.search(r"(?:每卡|每张卡|单卡|per (?:gpu|card)|each (?:gpu|card))\s*(?:连|含|包括|加上|带|including|incl\.?|with|plus)\s*"
                      r"(?:its\s+share\s+of\s+(?:the\s+)?)?(?:整机|服务器|主机|平台|server|system|host|the box)\s*(?:的)?\s*"
                      r"(?:分摊的?)?\s*(?:功耗|power|draw)?\s*(?:按|约|大概|about|~|at|=)?\s*(\d{2,4}(?:\.\d+)?)\s*(?:w|watts?|瓦)(?![a-z])",
                      text)
    if whole:  # '单卡连整机功耗按 550W 算': each card's draw with its share of the server, nothing to add on top
        return {"gpu_power_w": float(whole.group(1)), "server_overhead": 0.0}
    m = re.search(r"(\d{2,4}(?:\.\d+)?)\s*(?:w|watts?|瓦)\s*(?:/|per|每|a|each)\s*(?:gpu|card|卡|张)(?![a-z])|"
                  r"(?:每卡|每张卡|单卡|per gpu|each gpu)\s*(?:功耗|power|draw\w*)?\s*(?:约|about|~)?\s*(\d{2,4}(?:\.\d+)?)\s*(?:w|瓦)(?![a-z])",
                  text)
    if m:
        out["gpu_power_w"] = float(m.group(1) or m.group(2))
        over = re.search(r"[+＋]\s*(\d{1,3}(?:\.\d+)?)\s*%\s*(?:for\s+(?:the\s+)?)?(?:server|system|host|node|整机|服务器|overhead|其余|其他)|"
                         r"(\d{1,3}(?:\.\d+)?)\s*%\s*(?:server|system|host|node)?\s*overhead|(?:整机|服务器)\s*(?:另加|再加|加)\s*"
                         r"(\d{1,3}(?:\.\d+)?)\s*%", text[m.end():m.end() + 60])
        if over:
            out["server_overhead"] = float(over.group(1) or over.group(2) or over.group(3)) / 100
    return out


def power_limit(text: str) -> dict:
    """Watts available: '40 kW of rack power', '每个机柜只有 8kW 电', 'a normal 15A 120V outlet' (80% of amps x volts,
    the continuous-load rule for a circuit). A card's TDP ('450W 的 4090') is not a limit: it needs a word of supply."""
    m = re.search(_OUTLET, text)
    if m:
        amps, volts = (float(m.group(1)), float(m.group(2))) if m.group(1) else (float(m.group(4)), float(m.group(3)))
        return {"power_limit_w": round(0.8 * amps * volts)}
    for m in re.finditer(_KW, text):
        near = text[max(0, m.start() - 30):m.end() + 20]
        if re.match(r"\s*(?:max(?:imum)?|peak|rated|nameplate)?\s*(?:each|apiece|per\s+(?:box|server|node|dgx|machine|unit|rack))"
                    r"(?![a-z])|\s*(?:max(?:imum)?|peak)?\s*(?:/|每)\s*(?:台|box|server|node)", text[m.end():m.end() + 24]):
            continue  # ('4 DGX H100 (10.2 kW max each)': each machine's rating, not a limit on the room
        limit = re.search(r"别超|不超过|不能超|以内|之内|上限|限制|最多|under(?!\s*(?:full\s*)?load)|at most|max|within|limit|budget|cap|"
                          r"only|只有", near)  # ('draws ~10 kW under load' is a draw, not a limit)
        if re.match(r"\s*(?:/|per|每|each)\s*(?:gpu|card|卡|张)(?![a-z])", text[m.end():m.end() + 12]):
            continue  # ('400 W/GPU': each card's draw, not a limit)
        if not (re.search(_POWER_CONTEXT, near) or limit) or (
                re.search(r"tdp|功耗|每卡|每台|满载|per (?:gpu|card|node|server|machine)|draws?|pulls?|consum\w*|"
                          r"under (?:full )?load", near) and not limit):
            continue  # (a card's draw is not a limit: '450W 的 4090'; '整机功耗别超 500W' is)
        watts = float(m.group(1)) * (1000 if m.group(2) in ("kw", "千瓦") else 1)
        if watts >= 300:
            return {"power_limit_w": watts}
    return {}


def requests_a_day_each(text: str) -> float | None:
    """Requests each person sends a day ('每人每天 10 轮', '20 requests per user per day'); the people are counted
    apart (daily active users, a team)."""
    m = re.search(r"(?:每(?:人|个人|位|个用户|用户)|人均)\s*(?:平均)?\s*(?:每(?:天|日)|一天|日均)\s*(?:平均)?\s*(?:约|大概|大约|~)?\s*"
                  r"(\d+(?:\.\d+)?)\s*(?:轮|次|条|个请求|个问题|次对话|次请求)|"
                  r"(\d+(?:\.\d+)?)\s*(?:requests?|queries|messages|turns|chats|conversations|questions|calls)\s*"
                  r"(?:(?:per|a|each|/)\s*(?:user|person|head)\s*(?:per|a|each|/)\s*day|each\s*(?:per|a|/)\s*day|"
                  r"(?:per|a|/)\s*day\s*(?:each|per (?:user|person|head)))", text)
    return float(m.group(1) or m.group(2)) if m else None


def busy_hours_peak(text: str) -> tuple[float, str] | None:
    """'~80% of traffic within 10 working hours', '80% 的请求集中在白天 10 个小时': the busy hours' rate over the day's
    average (0.8 / 10 h against 1 / 24 h = 1.92×), with the phrase read; None when no such share is written."""
    m = re.search(r"(\d{1,3}(?:\.\d+)?)\s*%\s*(?:of\s+(?:the\s+|our\s+|all\s+)?(?:traffic|requests?|load|usage|calls|queries|"
                  r"tokens?)\s*)?(?:is\s+|are\s+|comes?\s+|happens?\s+|falls?\s+|arrives?\s+)?(?:with)?in\s+(?:the\s+|a\s+)?"
                  r"(?:~\s*)?(\d{1,2}(?:\.\d+)?)\s*(?:working\s+|business\s+|office\s+|peak\s+|busy\s+|day(?:time)?\s+)?"
                  r"(?:hours?|hrs?|h)(?![a-z])", text) or \
        re.search(r"(\d{1,3}(?:\.\d+)?)\s*%\s*(?:的)?\s*(?:流量|请求|调用|访问|负载|量)?\s*(?:都)?\s*(?:集中)?\s*(?:在)\s*"
                  r"(?:白天|工作时间|上班时间|工作时段|高峰)?\s*(?:的)?\s*(\d{1,2}(?:\.\d+)?)\s*(?:个)?\s*(?:小时|钟头|h)", text)
    if not m:
        return None
    share, hours = float(m.group(1)) / 100, float(m.group(2))
    if not (0 < share <= 1 and 0 < hours < 24):
        return None
    return max(1.0, share * 24 / hours), m.group(0)


def per_person_rate(text: str) -> dict:
    """'200 个客服坐席，每人平均每分钟发 2 次请求', '200 agents, each sending 2 requests a minute': the people times each
    one's rate is the load in requests a second (the people are not all in flight at once)."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:个|名|位)?\s*(?:客服)?\s*(?:坐席|座席|用户|员工|同事|人|客服)[^。；;?？]{0,30}?"
                  r"每(?:人|个人|位|个坐席|个用户)?\s*(?:平均)?\s*每?\s*(分钟|小时)\s*(?:平均)?\s*(?:发|调用|请求|问)?\s*(?:约|大概)?\s*"
                  r"(\d+(?:\.\d+)?)\s*(?:次|个请求|条)", text) or \
        re.search(r"(\d+(?:\.\d+)?)\s*(?:agents|users|seats|people|employees|reps)[^.?;]{0,40}?(?:each|per (?:user|agent|person|seat)|"
                  r"every one)[^.?;]{0,24}?(\d+(?:\.\d+)?)\s*(?:requests?|calls|queries|messages|prompts)\s*(?:per|a|an|/|each)\s*"
                  r"(minute|min|hour|hr)", text)
    if not m:
        return {}
    zh = m.group(2) in ("分钟", "小时")  # (the Chinese form writes the period before the count)
    people, unit, each = (float(m.group(1)), m.group(2), float(m.group(3))) if zh else \
        (float(m.group(1)), m.group(3), float(m.group(2)))
    per = 60.0 if unit in ("分钟", "minute", "min") else 3600.0
    rate = people * each / per
    return {"requests_per_s": round(rate, 4)} if 0 < rate <= 1e6 else {}


_USAGE_PER = {"month": 1.0, "mo": 1.0, "月": 1.0, "week": 730 / 168, "wk": 730 / 168, "周": 730 / 168, "day": 730 / 24,
              "天": 730 / 24, "year": 1 / 12, "yr": 1 / 12, "年": 1 / 12}


def gpu_hours_usage(low: str, spans) -> tuple[float, str | None] | None:
    """GPU-hours a period the user runs now, per month, and the card they run on: 'roughly 200 H100-GPU-hours a
    month', '~300 A100 hours per month', '每月大概 500 卡时（A100）', '每个月用 500 个 A100 卡时'."""
    unit = r"(month|mo|week|wk|day|year|yr|月|周|天|年)"
    m = re.search(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(k)?\s*(?:个)?\s*([a-z0-9\s-]{0,24}?|[^\d\n。，,;；]{0,12}?)[\s-]*(?:gpu[\s-]*)?"
                  r"(?:hours?|hrs?|卡时|卡·时|gpu\s*小时)(?![a-z])\s*(?:of\s+\w+\s+)?(?:a|per|/|each|every|一个?|每个?)\s*" + unit,
                  low) or \
        re.search(r"每(?:个)?" + unit + r"[^。；;\n\d]{0,12}?(\d[\d,]*(?:\.\d+)?)\s*(k|千|万)?\s*(?:个)?\s*([^\d\n。，,;；]{0,16}?)"
                  r"\s*(?:卡时|卡·时|gpu[\s-]*(?:hours?|小时))", low)
    if not m:
        return None
    if m.re.pattern.startswith("每"):
        per, num, mag, between = m.group(1), m.group(2), m.group(3), m.group(4)
    else:
        num, mag, between, per = m.group(1), m.group(2), m.group(3), m.group(4)
    if re.search(r"\$|¥|￥|元|美元|usd|rmb|at\s*$|for\s*$", between or ""):
        return None  # ('$2.20 per GPU-hour', '8 元/卡时'): a price's unit, not hours used
    if re.search(r"(?<![a-z\d])\d|gpus|cards|张|台|卡(?!时)", between or ""):
        return None  # ('8 GPUs 12 hours a day'): a count, then each one's hours
    v = float(num.replace(",", "")) * {"k": 1e3, "千": 1e3, "万": 1e4}.get(mag or "", 1)
    gid = next((g for a, b, g in spans if m.start() <= a < m.end()), None) or \
        next((g for a, b, g in spans if m.end() <= a <= m.end() + 6 and re.fullmatch(r"\s*的?\s*", low[m.end():a])), None)
    # ('200 H100-GPU-hours', '500 卡时的 A100': the card written inside or right after)
    return v * _USAGE_PER[per], gid
