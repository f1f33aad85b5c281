"""Every ask in a message: one Request can hold several questions about one job.

Three kinds, read from the words, never from a list of known questions:
- alternatives: 'FP8 or BF16?', 'ZeRO-2 vs ZeRO-3', 'do we need CPU offload?', '要不要开 FP8', 'with or without
  gradient checkpointing': every alternative is computed and compared; none is applied as a setting;
- several values of one input: 'batch 1 and batch 64', 'at 8k and 32k context', '4 or 8 GPUs', '4张还是8张';
- several intents: 'what does it cost to buy, and what does it rent for?', 'how much memory, and how long?',
  'max concurrency and requests per second': one answer section each, in the order asked.

The first ask keeps the message's own reading (the top-level Answer fields stay its); each further ask is the same
Request with the fields that differ.
"""
from __future__ import annotations

import re
import unicodedata

from pydantic import BaseModel, Field

from assistant.readers import cues
from assistant.readers.money import WHOLE_SERVER
from assistant.readers.slots import (COMPARATIVE, COUNT_ASK, FINETUNE_CUE, TIME_ENOUGH, TP_SIZE, largest_model, per_token_cost,
                                     recurring_hours, tp_size, w)
from assistant.request import Request


class Ask(BaseModel):
    """One question inside a message: what it asks (as written), and the Request fields that make it."""

    text: str = Field(description="the ask as written, or the alternative named")
    intent: str
    update: dict = Field(default_factory=dict, description="Request fields that differ from the message's reading")
    replicas: int | None = Field(None, description="copies of this layout on the GPUs the user has ('4 replicas at TP=2' "
                                                   "on one 8-GPU node); None for one")
    compare: str | None = Field(None, description="the setting compared across asks of one group ('offload', 'precision', "
                                                  "'batch', ...); None for an ask of its own")


# --- alternatives of a setting ------------------------------------------------------------------------------------
# setting -> [(value, pattern)], the value 'off' (None) first where the setting can be left out
_NEED = (r"要不要|需不需要|需要不需要|是否需要|是否要|有没有必要|有必要|必须|得不得|用不用|开不开|上不上|" +
         w(r"do (?:i|we|you) (?:need|have to|require)|would (?:i|we) need|will (?:i|we) need|is .{0,30}? (?:needed|required|necessary)|"
           r"need(?:ed)? to (?:use|enable|turn on)|should (?:i|we) (?:use|enable|turn on|add|go with|switch to)|"
           r"with or without|worth (?:using|enabling|it)|required|necessary|needed|can (?:i|we) (?:skip|avoid|get away without)"))

_HOW_MUCH_MORE = (r"多多少|能多|提升多少|提高多少|增加多少|省多少|少多少|快多少|" +
                  w(r"how much (?:more|longer|bigger|larger|faster|less|smaller)|how many more|what do (?:i|we) gain|"
                    r"gain from|difference (?:does|would) (?:it|that) make"))
_AND_WORD = r"和|与|跟|以及|、|(?<![a-z])(?:and|&)(?![a-z])"
_OR_WORD = r"(?<![a-z])(?:or|vs\.?|versus|than|over|against|compared (?:to|with))(?![a-z])|还是|或者|或是|或|/|比|相比|对比"


def _need_near(low: str, at: int) -> bool:
    """A need-question about the value named at `at`: 'do we need <X>', '要不要开<X>' just before it, or '<X> needed /
    required / necessary / 有必要吗' just after it."""
    before, after = low[max(0, at - 36):at], low[at:at + 48]
    return bool(re.search(r"(?:" + _NEED + r")[^.?!。？！]{0,14}$", before)
                or re.search(r"^[^.?!。？！]{0,30}?(?:" + w(r"needed|required|necessary|worth it|a must|need(?:ed)? at all") +
                             r"|有必要|必要吗|需要吗|必须吗|要开吗|要用吗)", after)
                or (re.search(r"(?:开|打开|启用|开启|用上|(?<![a-z])(?:enable|turn on|switch on|with))\s*$", before) and
                    re.search(r"^[^.?!。？！]{0,30}?(?:能|可以|会)?(?:翻倍|加倍|多一倍|double|twice|多多少|多几|more|提升多少|快多少)",
                              after)))


# 'how much more / less', '差多少', 'which is cheaper': a follow-up asking the difference between the thread's alternatives
THREAD_DIFFERENCE = (r"差多少|差几|差距|相差|差别|区别|对比|比较|哪个(?:更)?(?:省|便宜|划算|快|合适|好)|两个?(?:方案|都)|两个比|两者|分别|各是|各自|各多少|各要|"
                     + w(r"difference|differ|how much (?:more|less|cheaper|faster|slower)|which (?:is|one is) (?:cheaper|"
                         r"faster|better|more suitable)|which (?:one )?(?:should|would)|compared?|vs\.?|versus|both|each"))


SETTINGS: dict[str, list[tuple[object, str]]] = {
    "offload": [("none", r"(?!)"), ("optimizer", w(r"(?:cpu[\s_-]*)?offload(?:ing)?(?:[\s_-]*(?:the[\s_-]*)?optimi[sz]er)?|"
                                               r"offload_optimizer|zero[\s-]*offload") + r"|卸载|(?:cpu\s*)?offload")],
    "precision": [("fp8", w(r"fp8|e4m3")), ("bf16", w(r"bf16|bfloat16")), ("fp16", w(r"fp16|float16")),
                  ("q8_0", w("q8_0")), ("int8", w(r"int8|8[\s-]?bit(?! adam)|w8a8|q8") + r"|8位|八位"),
                  ("q6_k", w(r"q6_k|q6")), ("q5_k_m", w(r"q5_k_[ms]|q5_k|q5")), ("q4_k_m", w(r"q4_k_[ms]|q4_k")),
                  ("q4_0", w("q4_0")), ("awq", w("awq")), ("gptq", w("gptq")), ("nf4", w(r"nf4|bnb[\s-]*4[\s-]?bit")),
                  ("mxfp4", w("mxfp4")), ("int4", w(r"int4|4[\s-]?bit|w4a16|q4") + r"|4位|四位"),
                  ("q3_k_m", w(r"q3_k_[ms]|q3_k|q3")), ("q2_k", w(r"q2_k|q2")), ("iq4_xs", w(r"iq4_xs|iq4_nl")),
                  ("iq3_xxs", w(r"iq3_[a-z]+")), ("iq2_xxs", w(r"iq2_[a-z]+")), ("nvfp4", w("nvfp4"))],
    "zero": [(1, w(r"zero[\s_-]*(?:stage[\s_-]*)?1")), (2, w(r"zero[\s_-]*(?:stage[\s_-]*)?2")),
             (3, w(r"zero[\s_-]*(?:stage[\s_-]*)?3|fsdp|deepspeed(?![\s_-]*(?:zero|stage))"))],
    "recompute": [("none", r"(?!)"), ("full", w(r"gradient[\s_-]*checkpointing|activation[\s_-]*(?:checkpointing|recomputation)|"
                                                r"recomput\w*") + r"|重计算|梯度检查点")],
    "kv_dtype": [("bf16", w(r"bf16 kv|kv[\s-]*cache (?:in )?bf16")),
                 ("fp8", w(r"fp8 kv|kv[\s-]*cache (?:in )?fp8|kv fp8") + r"|kv[\s_-]*cache[\s_-]*dtype\s*(?:=|:|改成?|换成?|设为|设成|用)?\s*fp8"
                  r"|kv[\s_-]*(?:cache)?\s*(?:改成?|换成?|用|设为)\s*fp8")],
    "engine": [("vllm", w("vllm")), ("sglang", w("sglang")), ("llamacpp", w(r"llama[\s._-]*cpp|llamacpp")),
               ("ollama", w("ollama")), ("tensorrt-llm", w(r"tensorrt[\s_-]*llm|trt[\s_-]*llm"))],
    "method": [("full", w(r"full(?:[\s-]*param(?:eter)?)?[\s-]*fine[\s-]*tun\w*|full ft|full fine[\s-]?tune") + r"|全参"),
               ("lora", w("lora")), ("qlora", w("qlora"))],
}
_OFF_WORDS = {"offload": "without offload", "recompute": "without recomputation"}
_OFF_WORDS_ZH = {"offload": "不卸载", "recompute": "不重计算"}
_ON_WORDS = {"offload": "optimizer offloaded to CPU", "recompute": "full recomputation (gradient checkpointing)"}
_ON_WORDS_ZH = {"offload": "优化器卸载到 CPU", "recompute": "全量重计算（梯度检查点）"}


# a named 4-bit or 8-bit scheme and the generic width written beside it ('AWQ int4', 'gptq-int4', 'int8 (W8A8)') are one
_SCHEMES = {"int4": ("q4_k_m", "q4_0", "awq", "gptq", "nf4", "mxfp4"), "int8": ("q8_0",)}


def _values_named(low: str, setting: str) -> list[tuple[int, object]]:
    """(position, value) for each value of a setting named in the text, first mention of each, in order."""
    found: dict[object, int] = {}
    if setting == "precision":  # ('kv-cache-dtype 改 fp8': the cache's format, not the weights')
        for _, pattern in SETTINGS["kv_dtype"]:
            low = re.sub(pattern, lambda m: " " * len(m.group(0)), low)
    for value, pattern in SETTINGS[setting]:
        m = re.search(pattern, low)
        if m and value not in found:
            found[value] = m.start()
    if setting == "precision":
        int8_at = [m.start() for m in re.finditer(dict(SETTINGS["precision"])["int8"], low)
                   if not re.match(r"q8_0", low[m.start():m.start() + 4])]  # ('Q8_0、AWQ、GPTQ': the GGUF type, no INT8)
        if "gptq" in found and any(abs(found["gptq"] - a) <= 12 for a in int8_at):
            found.pop("gptq")  # 'GPTQ int8': an 8-bit GPTQ checkpoint, sized as INT8
        for generic, schemes in _SCHEMES.items():
            if generic in found:
                near = [found[x] for x in schemes if x in found]
                spans = [m.span() for x in schemes for m in re.finditer(dict(SETTINGS["precision"])[x], low)]
                at = [m.start() for m in re.finditer(dict(SETTINGS["precision"])[generic], low)
                      if not any(a <= m.start() < b for a, b in spans)]  # ('q4' inside 'q4_k_m' is the scheme)
                if len(at) == 1 and len(near) >= 2 and at[0] < min(near) <= at[0] + 12:
                    for x in schemes:  # '都用 4-bit (Q4_K_M / AWQ)': the width is what is said; the schemes are examples
                        found.pop(x, None)
                elif near and all(any(abs(a - b) <= 12 for b in near) for a in at):
                    found.pop(generic)  # the width of the scheme named, not an alternative to it
    return sorted(((p, v) for v, p in found.items()), key=lambda pv: pv[0])


def formats_named(text: str) -> list[str]:
    """The weight formats a message names, in order ('Q4_K_M 还是 AWQ' → ['q4_k_m', 'awq']; a bare 'GGUF' as 'gguf')."""
    low = text.lower()
    found = [v for _, v in _values_named(low, "precision")]
    if re.search(w("gguf"), low) and not any(str(v).startswith(("q", "iq")) for v in found):
        found.insert(0, "gguf")
    return found


_KV = w(r"(?:fp8|bf16|fp16|int8)\s*(?:的\s*)?kv(?:[\s-]*cache)?|kv[\s_-]*(?:cache)?[\s_-]*(?:dtype)?\s*(?:in|用|=|:|改成?|换成?|设为|设成)?\s*"
        r"(?:fp8|bf16|fp16|int8)")  # ('KV cache to fp8 or keep it bf16?': both the cache's, read as alternatives below)


_OFFLOAD_WORD = r"卸载|offload|放到?内存|放到?\s*cpu|(?<![a-z])(?:cpu|ram)[\s-]*offload|(?<![a-z])(?:to|onto|in|into) (?:the )?(?:cpu|system ram|ram)(?![a-z])"
_QUANT_WORD = r"量化|4\s*bit|4\s*位|int4|awq|gptq|q4|gguf|(?<![a-z])(?:quant\w*)(?![a-z])"


_ZH_COUNT = {"两": 2, "二": 2, "四": 4, "八": 8, "十六": 16}
# a GPU count as people write one: '2x H100', '8 张', '8-GPU box', '8 of them', '八卡', '16 cards'
_GPU_COUNT = (r"(?<![\d.$¥k])(\d{1,4})\s*(?:x|×|张|块|卡|(?=\s*(?:[a-z]+\s+)?(?:h100|h200|h20|h800|a100|a800|l40s|l20|4090|5090|"
              r"mi300x|910b)s?(?![a-z0-9]))|[\s-]*(?:gpus?|cards?)(?![a-z])|\s+of (?:them|those|these)(?![a-z]))|"
              r"(两|二|四|八|十六)\s*(?:张|块|卡)")
_SPEEDUP_ASK = r"快多少|快几倍|能快|提速|加速比|" + w(r"how much faster|faster (?:if|with|on)|speed[\s-]?up|scale (?:to|up to)")


def gpu_count_alternatives(low: str, req: Request) -> list[Ask]:
    """Two GPU counts of one card set against each other: '2x H100 enough, or do we need a full 8-GPU box?' (an 'or'
    between them), or a speed-up asked for a second count ('one H100: how long? how much faster if we rent 8?'). Each
    count is its own ask on the same job, compared (the job's own count first)."""
    if not req.model or len(set(req.gpus)) >= 2 or req.intent not in ("training_time", "training_memory", "inference_speed",
                                                                       "serving", "inference_memory"):
        return []
    found = []
    for m in re.finditer(_GPU_COUNT, low):
        n = int(m.group(1)) if m.group(1) else _ZH_COUNT[m.group(2)]
        if 1 <= n <= 4096:
            found.append((m.start(), m.end(), n))
    if req.num_gpus == 1 and not any(n == 1 for _, _, n in found):
        one = re.search(r"单卡|一张|(?<![a-z])(?:a single|one|single)(?![a-z])", low)
        if one:
            found.insert(0, (one.start(), one.end(), 1))
    values = list(dict.fromkeys(n for _, _, n in found))
    if len(values) < 2:
        return []
    first, second = found[0], next(f for f in found if f[2] != found[0][2])
    between = low[first[1]:second[0]]
    speedup = re.search(_SPEEDUP_ASK, low)
    if not (speedup or (len(between) <= 80 and re.search(_OR_WORD, between))):
        return []
    if re.search(r"[.?!。？]\s", between) and not speedup:
        return []  # (counts in two sentences, no 'or' asked between them)
    job = "training_time" if req.intent in ("training_time", "training_memory") and (req.tokens or req.samples) else req.intent
    zh, name = req.lang == "zh", req.gpu_text or req.gpu or ""
    return [Ask(text=(f"{n} 张 {name}" if zh else f"{n}× {name}").strip(), intent=job, update={"num_gpus": n},
                compare="num_gpus") for n in (first[2], second[2])]


def alternatives(low: str, req: Request, catalog=None) -> list[Ask]:
    """The alternatives a message asks to choose between, as asks (empty when it names none)."""
    zh = req.lang == "zh"
    inference = req.intent in ("inference_memory", "inference_speed", "serving") and req.method in (None, "inference")
    if inference and req.gpu and re.search(r"再买一张|再加一张|加一张|第二张|多买一张|再上一张|" + w(
            r"(?:buy|get|add|grab) (?:a |one )?(?:second|another|2nd|extra)|(?:a |one )?(?:second|another|2nd) (?:card|gpu|one)"),
            low):
        # 'do we need CPU offload on one 5090, or should we just buy a second 5090?': the job on the card(s) now, and
        # with one more
        n = req.num_gpus or 1
        name = req.gpu_text or req.gpu
        return [Ask(text=(f"{n} 张 {name}" if zh else f"{n}× {name}"), intent=req.intent, update={"num_gpus": n},
                    compare="num_gpus"),
                Ask(text=(f"{n + 1} 张 {name}" if zh else f"{n + 1}× {name}"), intent=req.intent,
                    update={"num_gpus": n + 1}, compare="num_gpus")]
    if req.intent in ("training_memory", "training_time") and req.model and re.search(_OFFLOAD_WORD, low) and \
            re.search(r"qlora", low) and re.search(r"(?<![q])lora|(?<![a-z])bf16", low) and \
            re.search(_OR_WORD + r"|(?<![a-z])just (?:go|use|do)(?![a-z])|直接", low):
        # ('LoRA on 2x 4090: do we need CPU offload (deepspeed) or should we just go QLoRA?'): 16-bit LoRA with what
        # offload takes to fit (the frozen weights too, where the optimizer alone is not enough) against QLoRA as it is
        return [Ask(text=("LoRA（16 位）+ CPU 卸载" if req.lang == "zh" else "LoRA (16-bit) + CPU offload"), intent="training_memory",
                    update={"method": "lora", "methods": [], "offload": "all", "precision": None}, compare="method"),
                Ask(text="QLoRA", intent="training_memory",
                    update={"method": "qlora", "methods": [], "offload": "none", "precision": None}, compare="method")]
    counts = gpu_count_alternatives(low, req)
    if counts:  # '2x H100 enough, or a full 8-GPU box?', 'how long on one H100? how much faster on 8?': each count
        return counts
    if inference and req.model and req.gpu and re.search(_OFFLOAD_WORD, low) and (
            (re.search(_QUANT_WORD, low) and re.search(r"还是|或者|(?<![a-z])(?:or|vs\.?|versus|instead)(?![a-z])", low)) or
            (re.search(r"要不要|需不需要|需要.{0,6}吗|有必要|值得|(?<![a-z])(?:do (?:i|we) need|should (?:i|we)|is it worth|"
                       r"worth it)(?![a-z])", low) and (req.num_gpus or 1) == 1 and not req.precision)):
        # ('推理要不要上 CPU offload？一张 4090 跑 Qwen3-32B'): offload is needed only for a larger file than the card
        # holds; the 4-bit file that fits whole is the comparison
        # 'offload layers to CPU or just use a 4-bit quant?': the model kept at 8 bits with the layers that do not fit
        # in RAM (llama.cpp -ngl), against a 4-bit file on the card; compared on one stream's speed
        return [Ask(text=("卸载到内存：Q8_0，显卡放不下的层放 CPU 内存" if zh else "offload: Q8_0, the layers beyond the GPU in CPU RAM"),
                    intent="inference_speed", update={"precision": "q8_0", "exact_format": True, "engine": "llamacpp"},
                    compare="precision"),
                Ask(text=("4 位量化：Q4_K_M 全在显卡上" if zh else "4-bit: Q4_K_M, all on the GPU"), intent="inference_speed",
                    update={"precision": "q4_k_m", "exact_format": True, "engine": "llamacpp"}, compare="precision")]
    for setting in SETTINGS:
        if setting == "offload" and inference:
            continue  # ('CPU offload to run it on one card?'): inference offload is the answer's own plan (weights or
            # experts in RAM), not a training optimizer's alternative
        if setting == "method" and req.methods:
            one_card = (req.num_gpus or 1) == 1 and not re.search(r"快|慢|多久|多长时间|几天|几个小时|耗时|" + w(
                r"faster|slower|speed|how long|time|hours or days|days or weeks"), low)  # ('分别要多少张卡、多久')
            feasible = re.search(r"能跑|跑得动|放得下|放不下|够不够|可行|哪些能|" + w(r"feasible|fits?|doable|possible|viable|"
                                                                           r"which (?:ones? )?(?:can|work)"), low)
            memory_words = re.search(r"显存|内存|" + w(r"memory|vram|memory numbers|how much (?:gpu )?memory"), low)
            if ((req.num_gpus or 1) == 1 and feasible or memory_words) and req.tokens and len(req.methods) >= 2:
                # 'one A100 40GB: full vs LoRA vs QLoRA, which are feasible, which would you pick? time per epoch too':
                # each method sized on the card (the pick), then the time of each that fits
                return [Ask(text=m, intent="training_memory", update={"method": m, "methods": []}, compare="method")
                        for m in req.methods[:3]] + \
                    [Ask(text=(f"{m} 训练时间" if zh else f"{m}: training time"), intent="training_time",
                         update={"method": m, "methods": []}) for m in req.methods[:3]]
            if (req.tokens or req.ratio_only) and len(req.methods) >= 2 and not one_card:
                # 'full or LoRA, which is faster?': each's time
                return [Ask(text=m, intent="training_time", update={"method": m, "methods": []}, compare="method")
                        for m in req.methods[:3]]
            if one_card and len(req.methods) >= 2 and req.tokens:
                # 'one A100 40GB: full vs LoRA vs QLoRA, which?': on one card memory decides first, each sized on it
                return [Ask(text=m, intent="training_memory", update={"method": m, "methods": []}, compare="method")
                        for m in req.methods[:3]]
            continue  # 'LoRA vs QLoRA' on a card is compared by the memory answer itself (with a pick)
        text = re.sub(_KV, lambda m: " " * len(m.group(0)), low) if setting == "precision" else low
        text = re.sub(w(r"8[\s-]?bit\s*(?:adam\w*|optimi[sz]er)|adam\w*[\s_-]*8[\s_-]*bit"), " ", text)
        named = _values_named(text, setting)
        if setting == "engine" and {v for _, v in named} <= {"llamacpp", "ollama"}:
            continue  # 'using llama.cpp/ollama': Ollama runs llama.cpp; one runtime, not two alternatives
        if setting == "precision" and len(named) >= 2 and req.intent in ("training_memory", "training_time") and \
                not re.search(r"fp8", low):
            continue  # 'bf16 or fp16 training' sizes the same
        def paired(a: int, b: int) -> bool:
            between = text[a:b]
            return bool((len(between) <= 40 and re.search(_OR_WORD, between)) or _need_near(text, a) or _need_near(text, b)
                        or (setting in ("precision", "kv_dtype", "engine") and re.fullmatch(
                            r"[\w.-]+\s*(?:to|->|→|换成|改成|换到|到)\s*", between) and re.search(r"(?:from|从)\s*$", text[max(0, a - 8):a])
                            and re.search(_OR_WORD + r"|(?<![a-z])(?:should|worth|stay|keep)(?![a-z])|值得|要不要|还是", text))
                        or (len(between) <= 14 and re.search(_AND_WORD, between) and setting in ("precision", "kv_dtype", "engine"))
                        or (setting in ("precision", "kv_dtype") and len(between) <= 80 and re.search(
                            r"(?:what|how) about (?:a |an |the |in )?$|(?:what if|and if) (?:i|we|you) (?:go|use|switch to|try|"
                            r"run|drop to|move to)(?: with| to| it in| in)? (?:a |an |the )?$|(?:换成|改成|改用|那|用)\s*$",
                            text[max(0, b - 30):b])))
            # ('can it run 70B Q4_K_M, and how fast? what about Q8?': the second format asked as the what-if of the first)
        if setting == "precision" and any(str(v).startswith("q") for _, v in named):
            named = [(i, "q8_0" if v == "int8" else v) for i, v in named]  # ('Q4_K_M … Q8?': the GGUF Q8_0 file)
        if setting == "precision" and len(named) >= 2 and {v for _, v in named} <= {"bf16", "fp16", "fp8"} and \
                re.search(r"kv[\s-]*(?:cache|缓存)", low) and not re.search(r"权重|" + w(r"weights?"), low) and \
                re.search(r"kv[\s-]*(?:cache|缓存)\s*(?:size|大小|有多大|多大|占|要多少)|" +
                          w(r"(?:size|big) (?:of )?(?:the )?kv[\s-]*cache"), low):
            setting = "kv_dtype"  # 'the KV cache size … in BF16 and in FP8?': the cache's format, the weights as they are
        elif setting == "precision" and len(named) >= 2 and {v for _, v in named} <= {"bf16", "fp16", "fp8", "int8"} and \
                re.search(r"kv[\s-]*(?:cache|缓存)[^.?!。？]{0,25}$", low[:named[0][0]]):
            setting = "kv_dtype"  # 'set KV cache to fp8 or keep it bf16?': the choice is the cache's
            named = [(i, v) for i, v in named if v in ("bf16", "fp16", "fp8")]
        if len(named) >= 2 and not req.model and req.family:
            return []  # ('部署 Qwen3 … Q4_K_M 还是 AWQ？'): which Qwen3 decides both; asked first, not a stand-in model's ratio
        if setting == "precision" and len(named) >= 2 and len(set(req.gpus)) >= 2 and _formats_ride_cards(text, named, catalog):
            return []  # ('8 卡 H20 跑 FP8，还是 8 卡 A800 跑 BF16'): each option is a card with its format, compared as cards
        if len(named) >= 2:
            if any(paired(named[i][0], named[i + 1][0]) for i in range(len(named) - 1)):
                # ('Q4 和 Q8 分别多快', 'int8 and int4: how long a context each?': both, each computed)
                extra = {} if req.model else {"ratio_only": True}  # 'how much faster is FP8 than BF16?': no job needed
                if setting in ("precision", "kv_dtype"):
                    extra["exact_format"] = True  # 'q4 or q8?': each as named, fit or not
                if setting == "precision":
                    extra["checkpoint_format"] = None  # ('BF16 还是官方 FP8 版本': each alternative is its own checkpoint)
                if setting == "kv_dtype" and req.precision in {v for _, v in named}:
                    extra["precision"] = None  # the format named was the cache's, not the weights'
                    extra["exact_format"] = False
                def own_engine(v) -> dict:
                    # 'GGUF Q4_K_M (llama.cpp/ollama) vs AWQ vs FP8': llama.cpp runs the GGUF file; AWQ and FP8 are
                    # served by vLLM, whatever engine was written beside the GGUF one
                    if setting == "precision" and req.engine in ("llamacpp", "ollama") and not str(v).startswith(("q", "iq")):
                        return {"engine": "vllm"}
                    if setting == "precision" and str(v).startswith(("q", "iq")) and req.engine not in ("llamacpp", "ollama") \
                            and re.search(r"llama\.?cpp|ollama|lm ?studio", low):
                        return {"engine": "llamacpp"}  # ('llama.cpp Q4_K_M or vLLM + AWQ?': the GGUF file runs in llama.cpp)
                    return {}
                return [Ask(text=_label(setting, v, zh), intent=_job_intent(req, setting, low),
                            update={setting: v, **extra, **own_engine(v)}, compare=setting) for _, v in named[:3]]
        if len(named) == 1 and re.search(r"[a-z0-9][-_]$", text[max(0, named[0][0] - 2):named[0][0]]):
            continue  # ('Qwen3-235B-A22B-FP8'): the checkpoint's name says its format; no choice is asked
        if len(named) == 1 and (_need_near(text, named[0][0]) or re.search(_HOW_MUCH_MORE, text)
                                or (setting == "kv_dtype" and _what_if_near(text, named[0][0]))) and \
                len(set(req.models or [])) < 2:  # ('A 和 B 都用 4-bit，哪个快、快多少': the models are compared, not the format)
            # ('FP8 KV cache: how much more context does it give?': without it and with it)
            on = named[0][1]
            if setting == "offload" and req.method == "qlora" and re.search(
                    r"(?:or|还是|或者|或)\s*(?:is |just |use |go |直接|用)?\s*q[\s-]?lora", low):
                # 'do we need CPU offload to fine-tune it on one 4090? or is QLoRA enough?': offload is what a full (or
                # 16-bit LoRA) fine-tune would need; QLoRA is the other road: each sized on the card
                intent = _job_intent(req, setting, low)
                return [Ask(text="QLoRA" + ("，不卸载" if zh else ", no offload"), intent=intent, compare="method",
                            update={"method": "qlora", "methods": [], "offload": "none", "precision": None}),
                        Ask(text="LoRA（16 位）" if zh else "LoRA (16-bit)", intent=intent, compare="method",
                            update={"method": "lora", "methods": [], "offload": "none", "precision": None}),
                        Ask(text=("全参，" if zh else "full fine-tune, ") + _label(setting, on, zh), intent=intent,
                            compare="method", update={"method": "full", "methods": [], "offload": on, "precision": None})]
            off = _off_value(setting, on)
            if setting == "zero" and on == 3 and not re.search(w(r"zero[\s_-]*(?:stage[\s_-]*)?3"), text):
                off = 0  # 'do we need DeepSpeed / FSDP?': against plain data parallelism, not ZeRO-2
            if off is None or off == on:
                continue
            intent = _job_intent(req, setting, low)
            return [Ask(text=_label(setting, off, zh), intent=intent, update={setting: off}, compare=setting),
                    Ask(text=_label(setting, on, zh), intent=intent, update={setting: on}, compare=setting)]
    return []


def _formats_ride_cards(text: str, named: list, catalog=None) -> bool:
    """Each format written right after a different card ('8 卡 H20 跑 FP8，还是 8 卡 A800 跑 BF16', '2x H100 in fp8 or
    4x L40S in awq'): the options are set-ups, one format each."""
    from assistant.readers.names import find_names
    from knowledge.catalog import default_catalog

    spans = sorted(find_names(text, catalog or default_catalog())[0].gpu_spans)
    owners = []
    for at, _ in named:
        before = [sp for sp in spans if sp[1] <= at and at - sp[1] <= 16]
        if not before:
            return False
        owners.append(before[-1][2])
    return len(set(owners)) == len(owners)


def _what_if_near(text: str, at: int) -> bool:
    """'… KV 能放多少？kv-cache-dtype 改 fp8 呢？', '… and what about an FP8 KV cache?': a value asked about as a change
    from the job as stated, so the job is computed as stated and with the change."""
    return bool(re.match(r"[^。？?!,，;；]{0,30}?(?:的话)?\s*(?:呢|会怎样|怎么样|如何|行不行)", text[at:at + 40]) or
                re.search(r"(?:改成?|换成?|改为|换为|(?<![a-z])(?:what about|what if|how about|switch(?:ing)? to|change (?:it )?to|"
                          r"with))\W{0,3}[^。？?!,，]{0,24}$", text[max(0, at - 40):at]))


def _job_intent(req: Request, setting: str, low: str = "") -> str:
    """The intent that computes a setting's alternatives: the message's, unless it was read as a choice of card
    ('should we use FP8 or BF16' on a named card is about the job, not the card); a speed ratio asked without a job is
    a training-time ratio when training is named, else an inference-speed one."""
    if not req.model and setting in ("precision", "kv_dtype", "engine"):
        infers = req.method == "inference" or re.search(r"推理|部署|解码|" + w(r"inference|serving|decode|generation"), low)
        trains = req.method in ("full", "lora", "qlora", "pretrain") or req.intent in ("training_time", "training_memory")
        return "training_time" if trains and not infers else "inference_speed"
    if setting == "precision" and req.intent == "training_memory" and req.tokens:
        return "training_time"  # 'FP8 or BF16 for this run?': the time decides
    if setting == "offload" and req.intent == "training_time":
        return "training_memory"  # the time model does not price offload: whether it is needed is a memory question
    if setting in ("zero", "recompute") and req.intent in ("training_time", "cost") and re.search(
            _NEED + r"|显存|够吗|够不够|放得下|" + w(r"memory|vram|fit|fits|enough"), low):
        return "training_memory"  # ('显存够吗，需不需要上 ZeRO-3？'): a sharding stage is needed when memory says so
    if setting in ("precision", "kv_dtype") and req.intent == "inference_memory" and re.search(
            r"快|速度|吞吐|" + w(r"faster|slower|speed\w*|throughput|tokens?/s|latency|worth"), low):
        return "inference_speed"  # 'is FP8 worth it, how much faster?': the speed decides (and the GPUs it takes)
    if setting in ("precision", "kv_dtype", "engine") and req.intent in ("cost", "price") and req.model and \
            not (req.tokens or req.period_hours or req.method in ("full", "lora", "qlora", "pretrain")):
        return "inference_speed"  # 'fp16 or int4, which is more cost-effective on a 4090?': same card, the throughput decides
    if req.intent not in ("recommend", "compare") or not req.model or len(req.gpus) >= 2:
        return req.intent
    if req.method in ("full", "lora", "qlora", "pretrain") or setting in ("offload", "zero", "recompute", "method"):
        return "training_time" if req.tokens else "training_memory"
    if req.concurrent_users or req.requests_per_s:
        return "serving"
    return "inference_speed" if setting in ("precision", "kv_dtype", "engine") else "inference_memory"


def _off_value(setting: str, on: object) -> object | None:
    """What 'without it' means for a setting asked about alone ('do we need X?')."""
    if setting in ("offload", "recompute"):
        return "none"
    if setting == "precision" and on in ("fp8", "int8", "int4"):
        return "bf16"
    if setting == "kv_dtype" and on == "fp8":
        return "bf16"
    if setting == "zero" and on == 3:
        return 2
    return None


def _label(setting: str, value: object, zh: bool) -> str:
    if setting in _OFF_WORDS and value == "none":
        return (_OFF_WORDS_ZH if zh else _OFF_WORDS)[setting]
    if setting in _ON_WORDS and value != "none":
        return (_ON_WORDS_ZH if zh else _ON_WORDS)[setting]
    if setting == "zero":
        return ("DDP（不用 DeepSpeed/FSDP）" if zh else "DDP (no DeepSpeed/FSDP)") if value == 0 else f"ZeRO-{value}"
    if setting == "kv_dtype":
        return f"KV cache {value}"
    return str(value).upper() if setting in ("precision",) else str(value)


# --- serving layouts: one big tensor-parallel instance or several smaller replicas ------------------------------------
_REPLICAS = (r"副本|实例|多开|" + w(r"replicas?|instances?|copies|engines|data[\s-]*parallel|dp\s*[=:]?\s*\d+") +
             r"|(?<![\w.])\d+\s*[x×]\s*tp")


def layouts(low: str, req: Request) -> list[Ask]:
    """'one TP=8 instance, or 4 replicas at TP=2?', '单实例 TP8 还是 4 个 TP2 副本': the GPUs the user has, split each
    way named; every layout is computed at the engine's batch (the sequences its KV room holds, up to vLLM's 256) and
    the node's total throughput decides (a replica that barely
    holds the weights has no room for KV cache, so it serves few sequences)."""
    if not req.model or req.intent not in ("inference_speed", "serving", "inference_memory", "recommend", "compare"):
        return []
    combos = [(int(m.group(1)), int(m.group(2))) for m in _TP_PP.finditer(low)]  # 'TP8+PP2': one instance, piped
    bare = _TP_PP.sub(" ", low)
    sizes = list(dict.fromkeys(tp_size(m) for m in TP_SIZE.finditer(bare)))
    total = req.num_gpus or ((req.nodes or 0) * (req.gpus_per_node or 8)) or None
    if len(sizes) + len(combos) < 2 or not sizes or not total or not re.search(_REPLICAS, low) or \
            any(t < 1 or t > total or total % t for t in sizes):
        return []
    zh = req.lang == "zh"
    asks = []
    asked = sorted(sizes[:3])
    between = [t for t in (2, 4, 8, 16) if asked[0] < t < asked[-1] and total % t == 0 and t not in asked]
    if len(asked) == 2 and between:  # 'TP8 or 4 x TP2?': the layout between them is computed too (often the best)
        sizes = sizes[:2] + between[:1]
    load = req.concurrent_users or req.batch
    for t in sizes[:3]:
        n = total // t
        text = ((f"{n} 个 TP{t} 副本" if n > 1 else f"单实例 TP{t}") if zh else
                (f"{n} replicas at TP={t}" if n > 1 else f"one TP={t} instance"))
        update = {"num_gpus": t, "tensor_parallel": t, "nodes": None, "pipeline_parallel": None}
        if load:  # '… concurrency 64': the users are shared among the replicas, not 64 on each
            update |= {k: -(-load // n) for k in ("concurrent_users", "batch") if getattr(req, k)}
        asks.append(Ask(text=text, intent="inference_speed", compare="layout", replicas=n, update=update))
    for t, p in combos[:1]:  # tensor parallelism inside each server, pipeline stages across them
        if t * p == total:
            update = {"num_gpus": total, "tensor_parallel": t, "pipeline_parallel": p, "nodes": None}
            if load:
                update |= {k: load for k in ("concurrent_users", "batch") if getattr(req, k)}
            asks.append(Ask(text=(f"单实例 TP{t}+PP{p}" if zh else f"one TP={t} × PP={p} instance"), intent="inference_speed",
                            compare="layout", replicas=1, update=update))
    return asks


_TP_PP = re.compile(r"(?<![a-z0-9])tp\s*=?\s*(\d{1,2})\s*(?:\+|×|x|\*|和|加)\s*pp\s*=?\s*(\d{1,2})(?![\d])")


# --- several values of one input -------------------------------------------------------------------------------------
_NUM = r"(\d+(?:\.\d+)?)\s*(k|K)?"
VALUE_SLOTS: dict[str, str] = {
    "batch": w(r"(?:batch[\s_-]*size|batch|bs|bsz)\s*(?:of|=|:|是|为)?\s*(\d+(?:\.\d+)?)\s*(k)?"),
    "context": r"(?<![\w.])" + _NUM + r"\s*(?:tokens?\s*)?(?:的)?\s*(?:context|ctx|上下文)|(?:context|ctx|上下文)\s*(?:of|=|:|是|为)?\s*" + _NUM,
    "num_gpus": r"(?<![\w.$¥])(?<!电费)(?<!电价)(?<!电费 )(?<!电价 )(\d+)\s*(?:x\s*)?"
                r"(?:张|块(?!钱|一度|每|/|一小时|一个月|多)|卡(?!时|·时)|gpus?\b|cards?\b)",  # ('电费 1 块一度': money)
    "lora_rank": w(r"(?:lora[\s_-]*)?(?:rank|r)\s*[=:]?\s*(\d+)"),
}


# a weight format named in an item of its own: (family, value computed, pattern); the family groups spellings
_ITEM_FORMATS = (("16", None, w(r"bf16|fp16|16[\s-]?bit") + r"|半精度|不量化"), ("fp8", "fp8", w("fp8")),
                 ("int8", "int8", w(r"int8|8[\s-]?bit")), ("4bit", None, w(r"awq|gptq|int4|4[\s-]?bit|q4_k_m|nf4")))
_ITEM = re.compile(r"(?:^|\s|[。？?；;])(?:\d[)）.、]|[(（]\d[)）]|[(（]?[a-d][)）])\s*")


_LOAD = re.compile(r"(?<![\d.,])(\d{1,6})\s*(?:个|名|位)?\s*(?:concurrent\s+|simultaneous\s+|parallel\s+)?(?:users?|requests?|"
                   r"people|streams?|sessions?|并发|路并发|个用户|用户|人同时|人并发)")
_SIZE_IT = r"需要|要几|几张|多少张|多少卡|要多少|怎么配|" + w(r"need|needs|require\w*|how many|what would|what does it take|"
                                                     r"take to|scale to|for \d+")


def several_loads(low: str, req: Request) -> list[Ask]:
    """'will it handle 30 concurrent users? and what would 100 concurrent need?': each load on its own — the first on
    the GPUs the user has, a later one asking what it needs sized afresh."""
    if req.intent != "serving" or not req.model:
        return []
    from assistant.readers.slots import OWN_MEASUREMENT, load_words

    clauses = _clauses(low)
    found = []
    for c in clauses:
        if re.search(OWN_MEASUREMENT, c):
            continue  # ('measured 2,400 tok/s at 64 concurrent': the benchmark's condition, not a load asked about)
        for m in _LOAD.finditer(load_words(c)):
            v = int(m.group(1))
            if v >= 1 and v != req.measured_concurrency and v not in [x for x, _ in found]:
                found.append((v, c))
    if len(found) < 2:
        return []
    zh = req.lang == "zh"
    asks = []
    for v, c in found[:3]:
        update: dict = {"concurrent_users": v}
        if asks and re.search(_SIZE_IT, c) and "num_gpus" in req.stated:
            update["num_gpus"] = None  # ('and what would 100 need?': the count is asked, not the user's cards)
        asks.append(Ask(text=(f"{v} 并发" if zh else f"{v} concurrent users"), intent="serving", update=update,
                        compare="concurrent_users"))
    return asks


_STRATEGY = re.compile(w(r"(?:deepspeed[\s_-]*)?zero[\s_-]*(?:stage[\s_-]*)?([123])(?:\s*(?:\+|with|和|加|带)\s*(?:cpu[\s_-]*)?"
                          r"offload(?:[\s_-]*optimi[sz]er)?)?|fsdp(?:\s*(?:\+|with|和|加|带)\s*(?:cpu[\s_-]*)?offload)?|"
                          r"(?:pure |plain )?ddp") + r"|(?:纯)?数据并行")


_MEGATRON = re.compile(w(r"megatron(?:[\s_-]*(?:lm|core))?(?:\s*(?:的\s*)?(?:tp\s*\+\s*pp|3d|tp|pp|tp/pp))?|3d[\s-]*parallel\w*|"
                         r"tp\s*\+\s*pp(?:\s*\+\s*dp)?") + r"|3d\s*并行|张量并行\s*[+＋]\s*流水(?:线)?并行")
PARAMS_PER_MODEL_PARALLEL_GPU = 5e9  # Megatron recipes keep ~2-6B parameters per GPU of a TP x PP group (70B: TP8 PP2)


def _megatron_layout(req: Request, catalog) -> dict | None:
    """'Megatron TP+PP' with no sizes: tensor parallelism over one server's GPUs (NVLink; never across nodes), pipeline
    stages enough to keep about PARAMS_PER_MODEL_PARALLEL_GPU parameters per GPU, ZeRO-1 (the distributed optimizer)
    over the data-parallel rest. A stated TP or PP is kept."""
    n = req.num_gpus or 0
    if not n or catalog is None or not req.model:
        return None
    try:
        spec = catalog.model(req.model)[0]
    except Exception:
        return None
    tp = req.tensor_parallel or min(req.gpus_per_node or 8, 8, n)
    while tp > 1 and (spec.num_attention_heads % tp or n % tp):
        tp //= 2
    per = spec.params_total / tp
    pp = req.pipeline_parallel or 1
    if not req.pipeline_parallel:
        while per / pp > PARAMS_PER_MODEL_PARALLEL_GPU and (n // tp) % (pp * 2) == 0 and pp * 2 <= spec.num_layers:
            pp *= 2
    return {"tensor_parallel": tp, "pipeline_parallel": pp, "zero": 1, "offload": "none"}


_GPU_HOUR = re.compile(r"(?:\$|usd\s*|¥|￥)\s*(\d+(?:\.\d+)?)\s*(?:usd|元)?\s*(?:/|per|每)\s*(?:gpu|卡)[\s-]*(?:-|·)?\s*(?:h(?:ou)?rs?|h|时|小时)"
                       r"(?![a-z])|(\d+(?:\.\d+)?)\s*(?:元|usd)\s*(?:/|每)\s*卡\s*(?:·|时|小时)")
_COMMIT_WORD = (r"包年|预留|长租|合约|签\s*\d*\s*年|年付|" + w(r"reserved|reservation|contract|commit(?:ment|ted)?|committed use|"
                                                          r"\d[\s-]*(?:year|yr)|savings plan|pay all hours"))


def rental_terms(low: str, req: Request) -> list[Ask]:
    """'cloud is $3.50/GPU-hr on-demand or $2.30/GPU-hr on a 1-yr commit (pay all hours)': two ways to rent, each its
    own bill (on demand pays the hours used; a commitment pays every hour of the term), compared with each other and
    with buying. [] unless two per-GPU-hour prices are written and exactly one of them is a commitment."""
    if req.intent not in ("cost", "price"):
        return []
    found = []
    for m in _GPU_HOUR.finditer(low):
        v = float(m.group(1) or m.group(2))
        own = low[m.end():m.end() + 30] if re.match(r"\s*(?:on|with|for|在|按)?\s*(?:a\s+)?" + r"(?:" + _COMMIT_WORD + r")",
                                                     low[m.end():m.end() + 30]) else \
            re.split(r"[.,;。，；]\s", low[max(0, m.start() - 20):m.start()])[-1]  # (this price's own clause)
        found.append((v, bool(re.search(_COMMIT_WORD, own))))
    if len(found) != 2 or sum(c for _, c in found) != 1:
        return []
    zh = req.lang == "zh"
    asks = []
    for v, committed in found:
        label = ((f"包年/预留 {v:g}/卡时（每小时都付）" if zh else f"committed ${v:g}/GPU-h (every hour paid)") if committed
                 else (f"按需 {v:g}/卡时（用多少付多少）" if zh else f"on demand ${v:g}/GPU-h (hours used)"))
        asks.append(Ask(text=label, intent="cost", compare="rental",
                        update={"price_per_gpu_hour": v, "rent_committed": committed}))
    return asks


_TRAIN_CLAUSE = r"训|微调|预训练|(?<![a-z])(?:fine[\s-]?tun\w*|finetun\w*|lora|qlora|train\w*|sft|pre[\s-]?train\w*)(?![a-z])"
_SERVE_CLAUSE = (r"部署|推理|上线|给[^，,。；;]{0,8}用|(?<![a-z])(?:serv\w*|inference|deploy\w*|chat\w*|users?|ppl|people|"
                 r"staff)(?![a-z])")


def two_jobs(low: str, req: Request, catalog) -> list[Ask]:
    """'既要每月训一个 7B 全参，又要部署 GLM-4.5-Air 给内部用，买什么配置？', 'need LoRA of 8B-14B models and serve
    Qwen2.5-32B to ~10 ppl. what to buy?': one purchase for a training job and a serving job, each sized on its own
    model (never the serving model trained), then the machine that does both (multi_ask). [] unless a clause trains a
    model and another serves one."""
    if req.intent != "recommend" or not req.purchase:
        return []
    from assistant.readers.rules import read

    train = serve = None
    for clause in re.split(r"[，,。；;]|又要|既要|还要|(?<![a-z])(?:and also|and|plus|also)(?![a-z])", low):
        if not clause or len(clause.strip()) < 4:
            continue
        r = read(clause, catalog).request
        if not r.model:
            continue
        if train is None and re.search(_TRAIN_CLAUSE, clause):
            train = r
        elif serve is None and re.search(_SERVE_CLAUSE, clause):
            serve = r
    if train is None or serve is None:
        return []
    zh = req.lang == "zh"
    method = train.method if train.method in ("full", "lora", "qlora", "pretrain") else "lora"
    deadline = recurring_hours(low) if train.tokens else None  # ('每月训一个 7B': done within the month)
    t_name, s_name = train.model_text or train.model, serve.model_text or serve.model
    from tools.serve_load import peak_in_flight

    users = serve.concurrent_users or (peak_in_flight(team_size=serve.team_size)[0] if serve.team_size else None) or \
        req.concurrent_users
    return [Ask(text=(f"训练：{t_name} {method}" if zh else f"train: {t_name} {method}"), intent="recommend", compare="job",
                update={"model": train.model, "models": [train.model], "model_text": train.model_text, "method": method,
                        "tokens": train.tokens, "epochs": train.epochs, "deadline_hours": deadline or req.deadline_hours,
                        "concurrent_users": None, "period_hours": None, "precision": None, "purchase": True}),
            Ask(text=(f"部署：{s_name}" if zh else f"serve: {s_name}"), intent="recommend", compare="job",
                update={"model": serve.model, "models": [serve.model], "model_text": serve.model_text,
                        "method": "inference", "tokens": None, "epochs": None, "deadline_hours": None,
                        "period_hours": None, "concurrent_users": users, "purchase": True,
                        "precision": serve.precision})]


_METHOD_WORDS = (("qlora", r"qlora"), ("lora", r"(?<![q])lora"), ("full", r"全参|全量|(?<![a-z])full[\s-]*(?:fine[\s-]?tun\w*|ft|sft|"
                                                                          r"param\w*)(?![a-z])|(?<![a-z])(?<!the )full(?![a-z])"
                                                                          r"(?!\s+(?:\d|context|ctx|window|length|load|"
                                                                          r"precision|model|size|speed|node|server|box|"
                                                                          r"machine|rack|year|month|day|week|time|price|"
                                                                          r"blood|bf16|fp16|kv))"),
                 ("pretrain", r"预训练|(?<![a-z])pre[\s-]?train\w*"))
_SERVE_WORD = r"部署|推理|上线|(?<![a-z])(?:serv(?:e|es|ing)|inference|deploy\w*|host(?:ing)?)(?![a-z])"
_EACH = r"分别|各(?:要|需要|多少|几)|两件事|都要|(?<![a-z])(?:each|both|vs\.?|versus|respectively)(?![a-z])|和|以及|还是|或"
# a training job followed by serving ('先做 SFT，然后上线推理', 'fine-tune it, then serve it'): two jobs in sequence
_THEN = r"然后|之后|完了?再|再(?=上线|部署|推理|serve)|(?<![a-z])(?:then|afterwards|after that)(?![a-z])"
_TUNE_WORD = r"sft|微调|(?<![a-z])(?:fine[\s-]?tun\w*|finetun\w*)(?![a-z])"


def train_and_serve(low: str, req: Request) -> list[Ask]:
    """'For Qwen3-32B: memory to serve it in bf16 vs to do a full fine-tune, and how many H100s for each?', 'Llama-3.3-70B
    要做两件事：QLoRA 微调和 FP8 推理上线，分别要多少显存？': one model, a training job and a serving job, each sized on its
    own terms (the format written beside the serving words is the serving job's; training keeps its own precision). []
    unless a training method and a serving word are both named for the message's one model, with 'each'/'vs'/'和'."""
    if not req.model or len(set(req.models or [req.model])) > 1 or req.intent in ("recommend", "cost", "price"):
        return []
    method = next((m for m, p in _METHOD_WORDS if re.search(p, low)), None)
    serve = re.search(_SERVE_WORD, low)
    tune = re.search(_TUNE_WORD, low)
    then = tune and serve and tune.start() < serve.start() and re.search(_THEN, low[tune.start():serve.end()])
    if not (method or then) or not serve or not (then or re.search(_EACH, low)) or req.tokens or req.deadline_hours:
        return []
    # (a fine-tune with no method named, then serving: the training ask compares the methods on the user's cards)
    zh = req.lang == "zh"
    near = [v for at, v in _values_named(low, "precision") if abs(at - serve.start()) <= 24]
    serve_fmt = near[0] if near else None  # ('serve it in bf16', 'FP8 推理'): the serving job's format
    users = req.concurrent_users
    names = {"qlora": "QLoRA", "lora": "LoRA", "full": "full fine-tune" if not zh else "全参微调",
             "pretrain": "pre-training" if not zh else "预训练", None: "SFT"}
    several = [m for m in req.methods if m in names] if len(req.methods) >= 2 else []
    # ('推理和 LoRA 微调都想做，全参能不能做？'): every method named is sized, side by side, in the training ask
    t_label = ("、" if zh else " / ").join(names[m] for m in several) if several else names[method]
    t_update = {"method": None, "methods": several} if several else {
        "method": method, "methods": [], "precision": "nf4" if method == "qlora" else None}
    return [Ask(text=(f"训练：{t_label}" if zh else f"train: {t_label}"), intent="training_memory", compare="task",
                update=t_update | {"concurrent_users": None, "checkpoint_format": None}),
            Ask(text=(f"推理：{serve_fmt.upper() if serve_fmt else '官方权重'}" if zh else
                      f"serve: {serve_fmt.upper() if serve_fmt else 'published weights'}"),
                intent="serving" if users else "inference_memory", compare="task",
                update={"method": "inference", "methods": [], "precision": serve_fmt, "tokens": None,
                        "exact_format": bool(serve_fmt)})]


def strategies(low: str, req: Request, catalog=None) -> list[Ask]:
    """'ZeRO-3、FSDP、ZeRO-2+offload 三种方案哪个能跑起来，推荐哪个？': each sharding strategy named, sized on the user's
    GPUs (FSDP full sharding is ZeRO-3's memory; '+offload' moves the optimizer states to CPU RAM). 'FSDP/ZeRO-3'
    written as one option is one; 'Megatron TP+PP' is tensor parallelism in the server, pipeline stages and the
    distributed optimizer (_megatron_layout)."""
    if req.method not in ("full", "pretrain") and not re.search(r"全参|full|pretrain|预训练", low):
        return []
    named = []
    for m in _STRATEGY.finditer(low):
        text = m.group(0)
        off = "offload" in text
        stage = int(m.group(1)) if m.group(1) else (3 if "fsdp" in text else 0)
        key = (stage, off, "fsdp" in text)
        same = next((i for i, ((s0, o0, _), _t, _e) in enumerate(named) if (s0, o0) == (stage, off)
                     and re.fullmatch(r"\s*[/／、]\s*|\s*(?:or|或|即)\s*", low[named[i][2]:m.start()])), None) if named else None
        if same is not None:  # 'FSDP/ZeRO-3': one option written two ways
            k, t, _ = named[same]
            named[same] = (k, t + "/" + text.strip(), m.end())
            continue
        if key not in [k for k, _, _ in named]:
            named.append((key, text.strip(), m.end()))
    mega = _MEGATRON.search(low)
    # (a stated Megatron config, 'Megatron-LM, TP=8, PP=4, distributed optimizer (like ZeRO-1)', is the job; only
    # 'Megatron or FSDP?' makes it an alternative)
    chosen = mega and re.search(r"还是|或者|或是|哪个|哪种|(?<![a-z])(?:or|vs\.?|versus|which)(?![a-z])", low)
    layout = _megatron_layout(req, catalog) if chosen else None
    if len(named) + (1 if layout else 0) < 2:
        return []
    intent = "training_time" if req.tokens else "training_memory"
    zh = req.lang == "zh"
    asks = []
    if layout:
        asks.append(Ask(text=f"Megatron TP{layout['tensor_parallel']} × PP{layout['pipeline_parallel']}" +
                        (" + 分布式优化器（ZeRO-1）" if zh else " + distributed optimizer (ZeRO-1)"),
                        intent=intent, compare="zero", update=layout | {"method": req.method or "full"}))
    for (stage, off, fsdp), text, _ in named[:4]:
        label = (text.upper().replace("ZERO", "ZeRO").replace("FSDP/", "FSDP/") if not fsdp or "/" in text else
                 "FSDP" + (" + offload" if off else ""))
        asks.append(Ask(text=label, intent=intent, compare="zero",
                        update={"zero": stage, "offload": "optimizer" if off else "none", "method": req.method or "full"}
                        | ({"tensor_parallel": None, "pipeline_parallel": None} if layout else {})))
    return asks


def several_formats(low: str, req: Request) -> list[Ask]:
    """'1）FP16 要几张 4090？2）换 AWQ int4 要几张？': weight formats named in separate items (enumerated, or separate
    questions) of one inference job are several values of the format, one ask each (never one format applied)."""
    if req.intent not in ("inference_memory", "inference_speed", "serving") or not req.model:
        return []
    low = re.sub(_KV, lambda m: " " * len(m.group(0)), low)  # 'FP8 KV cache': the cache's format, not the weights'
    items = [x for x in _ITEM.split(low) if x.strip()]
    if len(items) < 2:
        items = [x for x in _CLAUSE.split(low) if x and x.strip()]
    found: list[tuple[str, str, int | None]] = []
    for item in items:
        for fam, value, pat in _ITEM_FORMATS:
            m = re.search(pat, item)
            if m:
                if fam not in [f for f, _, _ in found]:
                    word = m.group(0).strip()
                    val = value or {"bf16": "bf16", "fp16": "fp16"}.get(word) or (
                        "awq" if "awq" in item else "gptq" if "gptq" in item else "q4_k_m" if "q4_k_m" in item else
                        "nf4" if "nf4" in item else "int4" if fam == "4bit" else "bf16")
                    found.append((fam, val, _clause_gpus(item)))  # ('A）4 张 A100 跑 BF16；B）2 张跑 AWQ': each plan's cards)
                break  # one format per item: 'AWQ int4' is one
    if len(found) < 2:
        return []
    return [Ask(text=val.upper() + (f" × {n}" if n and len({c for _, _, c in found}) > 1 else ""), intent=req.intent,
                update={"precision": val, "checkpoint_format": None, "exact_format": True}
                | ({"num_gpus": n} if n and len({c for _, _, c in found}) > 1 else {}),
                compare="precision") for _, val, n in found[:4]]


def several_values(low: str, req: Request) -> list[Ask]:
    """'batch 1 and batch 64', 'at 8k and 32k context', '4 or 8 GPUs': one ask per value."""
    zh = req.lang == "zh"
    if req.intent == "inference_speed" and req.batch and req.concurrent_users and req.batch != req.concurrent_users:
        # '单用户每秒多少 token？同时 10 个人用每人多少？': the speed at one user and at N
        return [Ask(text=("{} 个用户" if zh else "{} user(s)").format(b), intent=req.intent,
                    update={"batch": b, "concurrent_users": None}, compare="batch") for b in (req.batch, req.concurrent_users)]
    servers_compared = False  # 'one node or two?': whole servers compared, though a server count is written
    for slot, pattern in VALUE_SLOTS.items():
        values = []
        for m in re.finditer(pattern, low):
            if slot == "batch" and re.search(r"(?:global|micro|总|微|mini)[\s_-]*$", low[max(0, m.start() - 8):m.start()]):
                continue  # 'micro batch 1 … global batch 256': two different batches, not two values of one
            if slot == "num_gpus" and re.match(r"\s*(?:机|台|服务器|server|node|box)", low[m.end():m.end() + 6]):
                continue  # '16 张 H800（2 台 8 卡机）': the server's size, not another count
            if slot == "num_gpus" and m.group(0).rstrip().endswith("块") and re.search(
                    r"(?:每小时|一小时|小时|每卡时|卡时|租金|租价|价格|单价|售价|报价|每张|每卡)\s*(?:是|为|约|大概)?\s*$",
                    low[max(0, m.start() - 10):m.start()]):
                continue  # '每卡每小时 15 块': fifteen yuan an hour, not fifteen cards
            groups = [g for g in m.groups()]
            num = next((g for g in groups if g and re.fullmatch(r"\d+(?:\.\d+)?", g)), None)
            if num is None:
                continue
            k = any(g in ("k", "K") for g in groups if g)
            v = int(float(num) * (1024 if k and slot == "context" else 1000 if k else 1))
            if v > 0 and v not in values:
                values.append(v)
        if slot == "batch" and len(values) < 2:  # 'batch 1 and 64': the second value without its word
            m = re.search(w(r"(?:batch[\s_-]*size|batch|bs|bsz)\s*(?:of|=|:)?\s*(\d+)\s*(?:and|or|vs\.?|还是|和|与|或|/)\s*(\d+)"), low)
            if m:
                values = [int(m.group(1)), int(m.group(2))]
        if slot == "context" and len(values) < 2:
            m = re.search(r"(?<![\w.])(\d+)\s*(k)?\s*(?:and|or|vs\.?|还是|和|与|或|/)\s*(\d+)\s*(k)?\s*(?:tokens?\s*)?(?:的)?\s*"
                          r"(?:context|ctx|上下文)", low)
            if m:
                values = [int(m.group(1)) * (1024 if m.group(2) or m.group(4) else 1),
                          int(m.group(3)) * (1024 if m.group(4) else 1)]
        if slot == "context" and len(values) == 1:  # '32k 上下文能不能放下？128k 呢？', '…at 32k? what about 128k?'
            m = re.search(r"(?:[?？。,，;；]\s*|what about |how about |and (?:at |with |for )?)(\d+)\s*k\s*(?:tokens?)?\s*"
                          r"(?:的?上下文)?\s*(?:呢|[?？]|$)", low)
            if m and int(m.group(1)) * 1024 != values[0]:
                values.append(int(m.group(1)) * 1024)
        if slot == "num_gpus" and len(values) < 2:
            m = re.search(r"(?<![\w.$¥])(\d+)\s*(?:张|块|卡)?\s*(?:or|还是|或者|或|vs\.?|/)\s*(\d+)\s*(?:x\s*)?(?:张|块|卡|gpus?\b|cards?\b)", low)
            if m:
                values = [int(m.group(1)), int(m.group(2))]
        if slot == "num_gpus" and len(values) == 1 and values[0] > 1 and re.search(
                r"单卡|单张|一张卡|一块卡|" + w(r"one gpu|a single gpu|single gpu|1 gpu|one card|a single card"),
                low[:low.find(f"{values[0]}")] if f"{values[0]}" in low else "") and re.search(
                rf"{values[0]}\s*(?:x|×|张|块|卡|gpus?|cards?)[^?？,，。;；]{{0,16}}呢|" + w(rf"(?:what|how) about {values[0]}|"
                                                                                   rf"and (?:on |with )?{values[0]}"), low):
            values = [1, values[0]]  # '单卡能不能跑？8 卡呢？': one card, then eight (asked as a follow-on)
        if slot == "num_gpus" and len(values) < 2:  # 'TP=2 or TP=4?', 'tp2 还是 tp4'
            m = re.search(w(r"tp\s*[=:]?\s*(\d+)\s*(?:or|vs\.?|versus|/|还是|或)\s*(?:tp\s*[=:]?\s*)?(\d+)"), low)
            if m:
                values = [int(m.group(1)), int(m.group(2))]
        if slot == "num_gpus" and len(values) < 2:  # 'one 8x H100 node or two nodes?', '一台还是两台'
            words = {"one": 1, "a": 1, "single": 1, "1": 1, "一": 1, "单": 1, "two": 2, "2": 2, "两": 2, "二": 2, "three": 3,
                     "3": 3, "三": 3, "four": 4, "4": 4, "四": 4}
            m = re.search(r"(?<![a-z\d])(one|a|single|1|一|单)\s*(?:(\d+)\s*(?:x|×|卡)?\s*[a-z]*\d*\s*)?(?:node|server|machine|box|台)"
                          r"[^?？,，.。]{0,12}?(?:or|vs\.?|还是|或)\s*(two|2|两|二|three|3|三|four|4|四)\s*(?:nodes|servers|machines|boxes|台)", low)
            if m:
                per = int(m.group(2)) if m.group(2) else (req.gpus_per_node or 8)
                values = [words[m.group(1)] * per, words[m.group(3)] * per]
                servers_compared = True
        if slot == "num_gpus" and len(values) < 2:  # 'is one H100 enough or do we need TP2?'
            m = re.search(w(r"tp\s*[=:]?\s*(\d+)|tensor[\s-]*parallel(?:ism)?\s*(?:of\s*)?(\d+)"), low)
            layout = re.search(w(r"(?:pp|dp|ep|cp)\s*[=:]?\s*\d+|pipeline[\s-]*parallel\w*|data[\s-]*parallel\w*|"
                                 r"zero[\s-]*\d?|fsdp|ddp|deepspeed|megatron"), low) or (
                req.intent.startswith("training") and m and req.num_gpus and req.num_gpus % int(m.group(1) or m.group(2)) == 0)
            # ('256 H100s, ZeRO-1, TP1': the layout of the training job, not a second GPU count)
            if m and req.num_gpus and int(m.group(1) or m.group(2)) != req.num_gpus and not layout:
                # ('TP8 x PP4 x DP16 on 512 GPUs': one layout of the cluster, not TP8 as another count)
                values = [req.num_gpus, int(m.group(1) or m.group(2))]
        if len(values) >= 2:
            if slot == "num_gpus" and (req.nodes or req.intent in ("compare", "price")) and not servers_compared:
                continue
            field = slot
            if slot == "batch" and req.intent in ("training_memory", "training_time"):
                field = "micro_batch"
            if slot == "context" and req.intent in ("training_memory", "training_time"):
                field = "seq_len"
            label = {"batch": "batch {}", "context": ("上下文 {:,}" if zh else "context {:,}"),
                     "num_gpus": ("{} 张卡" if zh else "{} GPUs"), "lora_rank": "rank {}"}[slot]
            per_node = req.gpus_per_node or 8
            return [Ask(text=label.format(v), intent=req.intent,
                        update={field: v} | ({"nodes": max(1, v // per_node), "gpus_per_node": per_node}
                                             if servers_compared and slot == "num_gpus" else {}), compare=slot)
                    for v in values[:4]]
    return []


# --- several intents --------------------------------------------------------------------------------------------------
_CLAUSE = re.compile(r"[?？;；]|(?:^|(?<=[\s,，:：;；.。]))(?=[(（]\d[)）])|(?<=[\s:：])(?=\d[.、](?:\s+[a-z\u3400-\u9fff]|[\u3400-\u9fff]))|(?:^|(?<=[,，:：;；.。\n])|(?<=[,，:：;；.。]\s))(?=\d[)）]\s*[a-z\u3400-\u9fff])|(?<=\s)(?=[2-9][)）]\s*(?:[\u3400-\u9fff]|(?:how|what|is|can|could|do|does|should|will|would|which)\s))|[①②③④⑤⑥⑦⑧⑨]|(?:^|\s)(?:and also|also|plus|as well as|另外|还有|以及|顺便|同时|并且|而且|再问|那么)(?=\s|[\u3400-\u9fff])|"
                     r"[,，:：]\s*(?=(?:and\s+)?(?:(?:roughly|approximately|about|approx\.?|ballpark)\s+)?(?:how (?:long|much|many|fast|big|large)|"
                     r"what(?:'s| is| are| will| would| does| about| kind of)? (?:the\s+)?(?:decode|prefill|speed|throughput|latency|ttft|"
                     r"memory|vram|cost|price|bill|kv|context|batch|size|number|minimum|max\w*|tokens?)|多少|多久|要多久|几张|"
                     r"能不能|要不要|成本|价格|花多少|速度|一个月|每月|每小时|一小时|显存|够不够|最长|最大|吞吐|延迟|首字))|"
                     r",\s*and\s+(?=what|how|which|is|can|does|do|will|should)|"
                     r"\s+and\s+(?=what(?:'s|\s+is|\s+will|\s+would)?\s+(?:the\s+)?(?:bill|cost|price|total|damage)(?![a-z]))|"
                     # '… how long will training take and what will it cost at $2.50/GPU-hr?': the bill, its own ask
                     r"\s+and\s+(?=(?:what|how much)\s+(?:will|would|does|do|is)\s+(?:it|this|that|the\s+\w+)\s+cost(?![a-z]))|"
                     # '…租金 ¥7/卡/小时。帮我算每卡显存、训练时间和费用': the figures asked after the config, each its own
                     r"。(?=\s*(?:帮我|请|麻烦|再)?\s*(?:算|计算|估算|估|评估)\s*(?:一下)?)|"
                     r"(?<=显存|时间|时长|费用|成本|吞吐|速度|多久)\s*(?:、|和|以及|及|,|，)\s*(?=(?:总|训练|每卡|单卡)?\s*(?:显存|时间|时长|费用|成本|吞吐|速度|多久))|"
                     # '… $1.80/GPU-hr. Memory per GPU, wall time, total cost?': the figures asked after the config
                     # '… (we'd like 128k). and what would renting that pair cost per month?': a new sentence that asks
                     r"(?<=[a-z0-9)%])\.\s+(?=(?:and|also|plus)\s+(?:what|how|which|can|could|does|do|will|would|should|is)\s)|"
                     r"(?<=[a-z0-9)%])\.\s+(?=(?:and\s+)?(?:peak\s+)?(?:memory|vram|wall[\s-]?(?:clock|time)|total cost|cost|"
                     r"throughput|how (?:long|much|many))\b)|"
                     # 'Memory per GPU and wall-clock?': two figures named side by side
                     r"(?:(?<=gpu)|(?<=vram|mory|time|cost|ours|days))\s+and\s+(?=(?:the\s+)?(?:wall[\s-]?clock|training time|time to train|"
                     r"memory|vram|cost|steps?|step time|throughput|days|hours)\b)|"
                     # 'what's peak memory per GPU, seconds per optimizer step, and total wall-clock?': a list of figures
                     r",\s*(?:and\s+)?(?=(?:the\s+)?(?:seconds|time|total|peak|memory|monthly|cost|bill|price|throughput|"
                     r"latency|speed|tokens?/s|wall[\s-]?clock|wall[\s-]?time|step time)\b)|，\s*(?=(?:还有|另外|以及|那|以及|再|多少|能|要|是))|"
                     # '…多少钱，跑 72B 能支持多少并发？': a comma before a second question of its own
                     r"(?<=[多少钱吗呢价])[，,]\s*(?=[^，,。？?]{2,40}(?:多少|几张|几个|多久|吗|呢|怎么|如何|能否|能不能|够不够))|"
                     r"\band\s+(?=(?:what|how)\s+(?:is|are|does|do|much|many|long|fast|about))")
_INTENT_NAMES = {"price": ("price", "价格"), "cost": ("cost", "成本"), "training_time": ("training time", "训练时间"),
                 "training_memory": ("memory", "显存"), "inference_memory": ("memory", "显存"),
                 "inference_speed": ("speed", "速度"), "serving": ("serving capacity", "服务容量"),
                 "recommend": ("which GPU", "选卡"), "compare": ("comparison", "对比")}
# an intent a clause asks by itself; 'memory' words ask for the memory of the job the message is about
_STRONG = 3.0
_PRICE_KINDS = (("buy", w(r"buy|buying|purchase|purchasing|own|to own|msrp|street price") + r"|买|购买|采购|售价|入手"),
                ("rent", w(r"rent|renting|rental|hourly|per hour|an hour|on[\s-]?demand|cloud") + r"|租|每小时|一小时|按小时"))


def several_intents(low: str, req: Request, catalog=None) -> list[Ask]:
    """Asks of different kinds in one message, each from its own clause, in the order asked. The message's own reading
    is the first; a clause asking for something the first does not answer becomes a further ask."""
    zh = req.lang == "zh"
    asks: list[Ask] = []
    kind_asks: list[Ask] = []  # the purchase price and the rental rate, when both are asked
    if req.intent in ("price", "cost") and req.gpu:
        found = sorted((m.start(), k) for k, pat in _PRICE_KINDS for m in [re.search(pat, low)] if m)
        kinds = [k for _, k in found]
        per_month_price = bool(re.search(r"(?:一个月|每个?月|月租|包月)\s*(?:大概|大约|大致|要)?\s*(?:什么价|多少钱|多少|啥价|几万|几千)|" +
                                         w(r"(?:a|per|each) month\??\s*$|monthly (?:rate|price|rent|cost)|per month (?:rate|price)"), low))
        # ('租的话一个月大概什么价': the month is the rental price's unit, not a period of use)
        if len(kinds) == 2 and not ((req.period_hours and not per_month_price) or req.tokens or req.deadline_hours or
                                    req.break_even) and (
                req.intent == "price" or not (req.price_per_gpu_hour or req.purchase_price)):
            # 'what does it cost to buy, and to rent per hour?': the purchase price and the rental rate, as asked
            names = {"buy": ("purchase price", "购买价格"), "rent": ("rental rate", "租用价格")}
            kind_asks = [Ask(text=names[k][1 if zh else 0], intent="price", update={"price_kind": k}) for k in kinds]
    clauses = _clauses(low)
    if len(clauses) < 2:
        return kind_asks
    seen = {_family(req.intent)}
    main_at = None
    for at, clause in enumerate(clauses):
        intent = _clause_intent(clause, req)
        if largest_model(clause) and req.model and len(clauses) > 1:
            # 'what's the biggest model I can run on it, and how fast would a 70B go?': the biggest, then the 70B
            trains = req.method in ("full", "lora", "qlora", "pretrain") or req.intent.startswith("training")
            asks.append((at, Ask(text=clause, intent="training_memory" if trains else "inference_memory",
                                 update={"largest_model": True, "model": None, "models": [], "model_text": None})))
            seen.add("largest")
            continue
        listed = listed_asks(clause + "?", req) if re.search(r",|，|、|/|\band\b|和", clause) else []
        if len(listed) >= 2 and re.match(r"\s*(?:[:：]|$)", clause[len(clause.rstrip()):] or "") is not None and \
                len(clause) <= 60:
            # '… Memory per GPU and wall time? … what cost?': a clause that lists nouns asks each
            for x in listed:
                if _family(x.intent) not in seen:
                    seen.add(_family(x.intent))
                    if _family(x.intent) == _family(req.intent):
                        main_at = at if main_at is None else main_at
                    else:
                        asks.append((at, x))
            continue
        if intent is None:
            continue  # (an ask no calculator answers is listed by find_asks)
        if _family(intent) == _family(req.intent):
            main_at = at if main_at is None else main_at
            continue
        if _family(intent) in seen:
            continue
        if intent in ("price", "cost") and not (req.gpu or req.gpus):
            continue
        if intent in ("price", "cost") and req.intent == "training_time" and req.price_per_gpu_hour:
            continue  # '要多久？每卡时 12 元，总共多少钱？': the time answer gives the bill at that price
        if intent == "training_time" and not req.tokens and not req.samples and not re.search(
                r"多久|多长时间|几天|几个小时|(?<![a-z])(?:how long|how many (?:hours|days))(?![a-z])", clause):
            continue  # (an explicit 'how long?' without the data is still asked: answered by a question for the tokens,
            # with the time per 1B tokens meanwhile)
        if intent == "serving" and not (req.concurrent_users or req.requests_per_s):
            continue
        if intent == "inference_speed" and req.throughput_tokens_per_s:
            continue  # 'we measure 1,500 tokens/s': a figure given, not a speed asked
        if intent in ("inference_speed", "inference_memory") and req.purchase:
            continue  # 'what should I buy … at >10 tok/s with 8k context?': the purchase table gives each machine's speed and fit
        if intent == "inference_speed" and req.intent == "serving" and not re.search(_ONE_STREAM, clause):
            continue  # the capacity answer gives the requests/s and the per-user speed at that load ('at 20 tokens/s
            # each' is a target); only a single stream's speed is a further ask
        if intent == "inference_speed" and req.intent == "training_time" and not re.search(
                r"推理|部署|" + w(r"inference|serv\w*|deploy\w*"), low):
            continue  # the speed of a training job is the time answer's throughput
        if intent in ("training_memory", "inference_memory") and not req.model:
            continue
        if intent == "inference_memory" and req.intent == "serving" and req.concurrent_users and \
                re.search(r"够不够|够吗|够用|(?<![a-z])enough(?![a-z])", clause) and not re.search(CONTEXT_LEFT, clause):
            continue  # ('an A100 server for 50 users at 8k: is that enough?'): the capacity answer's verdict is the fit
        if intent in ("training_memory", "inference_memory") and re.search(COUNT_ASK, clause) and (
                req.intent == "serving" or (req.intent == "training_time" and req.deadline_hours) or
                (req.intent == "inference_speed" and (req.batch_items or req.batch_output_tokens))):
            continue  # 'how many GPUs ...' is the count the plan or the deadline already answers
        seen.add(_family(intent))
        n = _clause_gpus(clause)  # '2) … 8 卡 A800 大概多久' beside '1) 单卡够不够': this ask's own GPU count
        update = {"num_gpus": n} if n and n != req.num_gpus else {}
        card = _clause_card(clause, catalog) if catalog is not None else None
        if card and card != req.gpu:  # '… 8 张 A100 多久？训完推理用一张 4090 能不能跑': this ask's own card
            update |= {"gpu": card, "gpus": [card], "num_gpus": n or 1}
        if intent.startswith("inference") and req.method in ("full", "lora", "qlora", "pretrain"):
            update |= {"method": None, "methods": []}  # (serving the trained model: no fine-tuning method)
        asks.append((at, Ask(text=_title(clause, intent, zh), intent=intent, update=update)))
    if kind_asks:  # ('买断多少钱？租一个月什么价？另外这台能不能跑满血 R1？'): both prices, then the other asks
        return kind_asks + [a for _, a in sorted(asks, key=lambda pa: pa[0])]
    if not asks:
        return []
    kinds = {req.intent} | {a.intent for _, a in asks}
    if (req.concurrent_users or req.requests_per_s) and not req.batch and "inference_speed" in kinds and \
            kinds & {"serving", "inference_memory"} and kinds <= {"inference_speed", "inference_memory", "serving"} and \
            not re.search(_ONE_STREAM, low):
        # 'does the KV fit for 200 users? rough aggregate tok/s and requests/min?': one job at one load; the capacity
        # plan answers both (the fit, then its per-user and total rates with prefill interleaved), not a second
        # section timing a burst of 200 prompts at once
        return [Ask(text=_intent_label(req.model_copy(update={"intent": "serving"})), intent="serving")]
    first = Ask(text=(_intent_label(req)), intent=req.intent,
                update={"largest_model": None} if "largest" in seen else {})
    taken = {a.update.get("gpu") for _, a in asks} - {None}
    if taken and req.gpu and len(req.gpus) > 1:  # a card another clause asks about is that ask's, not the first's
        first = first.model_copy(update={"update": first.update | {"gpus": [g for g in req.gpus if g not in taken]
                                                                   or [req.gpu]}})
    asks.append((main_at if main_at is not None else -1, first))
    return [a for _, a in sorted(asks, key=lambda pa: pa[0])]




_QUESTION = (r"[?？吗呢么]\s*$|什么|怎么|为什么|为啥|哪|如何|是否|好不好|行不行|能不能|可不可以|是不是|有没有|多少|" +
             w(r"what|how|why|which|any") + r"|^\W*(?:and\s+|but\s+|also\s+|so\s+)?" +
             w(r"can|could|does|do|is|are|should|would|will") + r"|" +
             w(r"(?:can|could|does|do|is|are|should|would|will) (?:i|we|you|it|they|this|that|these|those|there|he|she)"))
# (an auxiliary asks where it opens the clause or comes before its subject: 'total is confidential' asks nothing)
_NUMBERISH = r"\d"
# A clause that asks the speed of one stream beside a load ('and for a single user?', '单个用户多快').
_ONE_STREAM = (w(r"single[\s-]*(?:user|stream|request)|one[\s-]*(?:user|stream|request)|batch[\s-]*(?:size[\s-]*)?(?:of\s*)?1|bs\s*=?\s*1")
               + r"|单(?:个|路)?(?:用户|请求|并发)|一个用户|单条")


# 'what is the minimum hardware?', '最低要什么配置': the fewest GPUs (in whole servers) that the sizing answers give
_MINIMUM = (r"最低配置|最少要?什么|最低要?什么|最少.{0,4}配置|" +
            w(r"minimum (?:hardware|setup|config\w*|gpus?|cluster)|min(?:imum)? (?:number of )?gpus|smallest (?:setup|cluster)"))
_DECISION = (r"选哪|哪个|哪一个|哪张|推荐|为什么|为啥|理由|" +
             w(r"pick|choose|which (?:one|is better|should)|recommend\w*|why|tell me why|decide|go with|better"))


# 'micro batch 和梯度累积怎么设', 'what grad accumulation should we use': the training time answer's per-GPU split
SPLIT_ASK = r"micro|梯度累|grad(?:ient)?[\s_-]*accum|per[\s-]*device[\s_-]*batch|每卡.{0,6}batch"


# 'is it just proportional to tokens?', '是不是按 token 比例算就行': how to scale a quoted run, which the time answer says
SCALE_CHECK = (r"(?:按|照)\s*(?:token|数据量|参数)?\s*(?:的)?\s*比例.{0,6}(?:算|折算|换算|缩放)|" +
               w(r"(?:just |simply )?(?:scale|proportional|pro[\s-]?rat\w*)(?: it)?(?: by| to)? (?:the )?(?:tokens?|data|params?|"
                 r"parameters?|size)|linear(?:ly)? (?:in|with) (?:tokens?|data)"))
# 'how much context do i have left?', '还能开多长上下文': the memory answer's longest context
CONTEXT_LEFT = (r"(?:还|能)\s*(?:剩|开|跑)\s*(?:多长|多少)\s*(?:的)?\s*(?:上下文|context)|最长(?:的)?\s*(?:上下文|context)|" +
                w(r"how much (?:context|room|kv)(?: (?:do|would|will) (?:i|we) have)?(?: left)?|(?:longest|max(?:imum)?) context"))
# the main figure asked for again, in other words: 'what's the realistic estimate', 'ballpark?', '靠谱的估计是多少'
ESTIMATE_ASK = (r"估计|估算|靠谱的?(?:数|估|说法)|实际(?:上)?.{0,4}(?:多少|多久|多长)|正确的?(?:数|答案)|合理的?(?:数|估|范围)|" +
                w(r"(?:realistic|real|actual|proper|correct|right|better|rough|ballpark|honest|sane|true) (?:estimate|number|"
                  r"figure|answer|timeline|range)|estimates?|ballpark|sanity[\s-]?check"))


def _unanswerable(clause: str, at: int) -> bool:
    """A clause that asks something (a question form, no numbers) that no calculator answers and that is not the
    message's main question: listed under 'Not answered' rather than dropped in silence."""
    if at == 0 or len(clause) < 12 or re.search(_NUMBERISH, clause) or re.search(SPLIT_ASK, clause):
        return False
    if not re.search(_QUESTION, clause):
        return False
    if re.search(COUNT_ASK + r"|" + w(r"how many (?:of (?:each|them|these|those)|do (?:i|we) need|are needed|would it take)"),
                 clause):
        return False  # ('… how many do i need', 'how many of each'): the GPU count the answer gives
    if re.search(cues.HEADROOM_ASK, clause):
        return False  # ('… and how much headroom?': the capacity answer gives it)
    if re.search(r"^(?:and\s+|but\s+|also\s+)?(?:(?:we|i)(?:'d| would)?\s+)?(?:would\s+)?(?:rather|prefer|don'?t want|do not want|"
                 r"want to avoid|hope to|'?d like to avoid)\b|^(?:我们|我)?(?:宁愿|宁可|更希望|希望|不想|不希望|尽量)", clause.strip()):
        return False  # ('would rather not overpay for a huge cluster'): a preference the answer's pick weighs, not an ask
    if re.search(r"(?:context|上下文|prompt).{0,25}(?:go|get|be|reach|长|多长|多少)|how many .{0,30}(?:requests?|users?|"
                 r"sequences?|sessions?|chats?).{0,25}(?:at once|concurrent\w*|simultaneous\w*|in parallel)|同时.{0,6}(?:几|多少)", clause):
        return False  # ('how long can the context go / how many long-context requests at once?'): the memory answer's
        # longest context and sequences at once
    from assistant.plans.train import BATCH_SEQ_ASK

    if re.search(BATCH_SEQ_ASK, clause):
        return False  # ('what batch/seq can we do?'): the memory answer's micro-batch at each length
    if re.search(ESTIMATE_ASK + "|" + SCALE_CHECK + "|" + CONTEXT_LEFT, clause):
        return False  # ('that can't be right. what's the realistic estimate?': the message's own figure, asked again)
    if re.search(r"req(?:uest)?s?\s*/\s*s|requests? (?:per|a|each) second|(?<![a-z])(?:qps|rps|sla|ttft|tpot|itl)(?![a-z])|"
                 r"request rate|throughput|latency|吞吐|每秒.{0,6}请求|请求.{0,4}每秒|延迟|首字", clause):
        return False  # ('what sustained request rate (req/s) can one GPU handle?': the serving plan gives it)
    if re.search(r"^(?:and\s+)?(?:if not|otherwise|if so|if yes|if no)\b|^(?:不够|不行|如果不够|如果不行|否则)(?:的话)?", clause.strip()):
        return False  # ('is 4 enough? if not how many?': the count the answer gives either way)
    if re.search(r"^(?:and\s+|but\s+)?(?:assume|assuming|suppose|supposing|let'?s say|given that|presume)\b|"
                 r"^(?:假设|假定|就当|姑且|默认)", clause.strip()):
        return False  # ('assume quality is fine': a premise the user sets, not a question)
    scores, _ = cues.score(clause)
    if re.search(cues.CONCEPTS, clause):
        return False  # a concept the reference notes explain
    asked = [v for k, v in scores.items() if k in _INTENT_NAMES or k == "memory"]
    return max(asked, default=0.0) < 1.5


_CLAUSE_GPUS = re.compile(r"(?<![a-z\d.])(\d{1,5})\s*(?:x|×|张|块|卡)?\s*(?:nvidia\s*)?(?:rtx\s*)?"
                          r"(?:[abhl]\d{2,3}s?|l40s?|[345]090d?|910b|mi3\d\dx?|gpus?|cards?)(?![\d])"
                          r"(?![\s-]*(?:gpu[\s-]*)?(?:hours?|hrs?|days?|小时|卡时))|(?<![a-z\d.])(\d{1,5})\s*卡(?!时)")


def _clause_card(clause: str, catalog) -> str | None:
    """The one GPU a clause names, or None."""
    from assistant.readers.names import find_names

    gpus = find_names(clause, catalog)[0].gpus
    return gpus[0] if len(gpus) == 1 else None


_TRAIN_JOB = r"训练|训完之前|微调|sft|预训练|" + w(r"train\w*|fine[\s-]?tun\w*|pre[\s-]?train\w*|lora|qlora|full ft")
_INFER_JOB = r"推理|部署|上线|跑得动|能不能跑|" + w(r"inference|infer|serv\w*|deploy\w*|run it|chat with")


def _different_jobs(low: str, spans: list) -> bool:
    """Two cards each in a clause of its own kind of job ('8 张 A100 训练多久？训完推理用一张 4090 能不能跑'): not two
    options for one job."""
    kinds = []
    for start, end, _ in spans:
        a = max(low.rfind(c, 0, start) for c in "?？。;；") + 1
        b = min([i for i in (low.find(c, end) for c in "?？。;；") if i >= 0] or [len(low)])
        clause = low[a:b]
        train = bool(re.search(_TRAIN_JOB, clause)) and not re.search(r"训完|trained|after training", clause)
        infer = bool(re.search(_INFER_JOB, clause))
        kinds.append("train" if train and not infer else "infer" if infer and not train else None)
    return len(set(kinds)) > 1 and None not in kinds


def _clause_gpus(clause: str) -> int | None:
    """The GPU count one clause states ('8 卡 a800', 'on 16 H100s', 'one 8x h100 node'), or None."""
    from assistant.readers.slots import gpu_count, nodes

    from assistant.readers.numbers import to_number

    clause = re.sub(r"[\d.,]+\s*(?:[mkb]|million|万|亿)?\s*(?:(?:nvidia\s*)?[a-z]{0,4}\d{2,4}[a-z]?\s*)?(?:gpu|卡)[\s-]*"
                    r"(?:hours?|hrs?|h|days?|小时|时|天)(?![a-z])", " ", clause)  # ('30.84M H100 GPU hours': compute, no count)
    said = re.search(r"(?:共|总共|合计|一共|in total|total of)\s*(\d+)\s*(?:张|块)?\s*(?:卡|gpus?)", clause)
    if said:  # ('…（共 32 卡）': the total, as the user wrote it)
        return int(said.group(1))
    boxes = re.search(r"(\d+|[一两二三四五六七八九十])\s*台\s*(\d+)\s*(?:卡|张)", clause)
    if boxes and to_number(boxes.group(1)) and to_number(boxes.group(2)):  # ('4 台 8 卡 A800': servers x their GPUs)
        return int(to_number(boxes.group(1)) * to_number(boxes.group(2)))
    whole = nodes(clause)  # ('two servers with 8 GPUs each')
    if whole.get("num_gpus"):
        return int(whole["num_gpus"])
    m = _CLAUSE_GPUS.search(clause)
    if m:
        return int(m.group(1) or m.group(2))
    return gpu_count(clause).get("num_gpus")


_RUN_ASK = (r"能不能跑|能跑吗|能否跑|跑得动|跑不跑得动|跑得起来|放得下|放不放得下|装得下|能不能部署|能部署吗|" +
            w(r"can (?:it|this|that|one|we|a single \w+) (?:run|host|serve|fit|load)|will (?:it|this|that) (?:run|fit)|"
              r"(?:can|could|will|would|does|do) (?:[\w.\-]+\s+){1,5}(?:run|fit) (?:on|in|into)|"
              r"does (?:it|this|that) fit|would (?:it|this|that) (?:run|fit)|enough to (?:run|host|serve|load)"))


def _clause_intent(clause: str, req: Request) -> str | None:
    """The intent one clause asks by itself, or None; 'memory' words ask for the memory of the message's job."""
    if TIME_ENOUGH.search(clause) and req.deadline_hours and (req.tokens or req.samples):
        return "training_time"  # ('is a week enough?', '一周够不够': the run's time against that deadline, not its memory)
    if re.search(r"首\s*(?:token|字|个\s*token)|(?<![a-z])(?:ttft|first[\s-]token|time[\s-]to[\s-]first)", clause) and \
            not re.search(FINETUNE_CUE, clause):
        # ('首 token 大概要等多久？': a latency, never a training time for its '多久')
        return req.intent if req.intent in ("serving", "inference_speed") else "inference_speed"
    scores, _ = cues.score(clause)
    memory = scores.pop("memory", 0.0)
    scores.pop("explain_strong", None)
    strong = {k: v for k, v in scores.items() if k in _INTENT_NAMES and k not in ("recommend", "compare") and v >= _STRONG}
    if memory >= 2 and not strong:
        trains = req.method in ("full", "lora", "qlora", "pretrain") or req.intent.startswith("training")
        return "training_memory" if trains and not re.search(_INFER_JOB, clause) else "inference_memory"
    if not strong and scores.get("inference_memory", 0) >= 1.5 and re.search(_INFER_JOB, clause) and \
            re.search(_QUESTION, clause) and (req.intent.startswith("training") or
                                              req.method in ("full", "lora", "qlora", "pretrain")):
        return "inference_memory"  # ('训完推理用一张 4090 能不能跑，能开多长上下文': serving the trained model, a clause of its own)
    if not strong and req.model and re.search(_RUN_ASK, clause) and not re.search(FINETUNE_CUE, clause) and \
            req.intent in ("price", "cost", "recommend", "compare", "spec"):
        return "inference_memory"  # ('… 买断多少钱？租一个月什么价？另外这台能不能跑满血 R1？': whether the model runs on it)
    if not strong:
        return None
    return max(strong.items(), key=lambda kv: kv[1])[0]


def _clauses(low: str) -> list[str]:
    """The message cut at its questions and at the words that start another ask; a question on a line of its own
    under pasted lines ('- seq_len 8192 …\nWill it fit per GPU and how long?') is cut from them, so the config's words
    do not decide what the question asks."""
    lines = low.split("\n")
    if len(lines) > 2 and re.search(r"[?？]\s*$", lines[-1]):
        head, last = "\n".join(lines[:-1]), lines[-1]
        return [c.strip() for part in (head, last) for c in _CLAUSE.split(part) if c and _long_enough(c)]
    return [c.strip() for c in _CLAUSE.split(low) if c and _long_enough(c)]


def _long_enough(clause: str) -> bool:
    """A clause worth reading: four characters, or three Chinese ones ('要多久', '多少钱')."""
    c = clause.strip()
    return len(c) > 3 or bool(re.fullmatch(r"[\u4e00-\u9fff]{3}", c))


def _title(clause: str, intent: str, zh: bool) -> str:
    """A section's title: the clause as asked when it is short, else the name of what it asks."""
    clause = re.sub(r"^(?:[(（]\d[)）]|\d[)）.、]|[①②③④⑤⑥⑦⑧⑨])\s*", "", clause)
    clause = re.sub(r"[\s,，;；:：]*(?:(?<![a-z])and|以及|和|还有)?[\s,，;；:：]*$", "", clause)
    if len(clause) <= 60:
        return clause
    return _INTENT_NAMES.get(intent, (intent, intent))[1 if zh else 0]


def _intent_label(req: Request) -> str:
    """The section title of the message's own ask ('training time', '训练时间')."""
    return _INTENT_NAMES.get(req.intent, (req.intent, req.intent))[1 if req.lang == "zh" else 0]


def _family(intent: str) -> str:
    if intent in ("price", "cost"):
        return "money"  # '一个月多少钱' beside a cost question is the same ask
    return "memory" if intent in ("training_memory", "inference_memory") else intent


# --- several cards for one job -----------------------------------------------------------------------------------------
_TIGHT_TAIL = r"\s*(?:per|for each|for every|for an?|for one|each|/|每张|每块|一张)\s*(?:\d+\s*x?\s*)?$"  # '$0.70/hr per L4'
_RATE = (r"(?:at|@|租|rent(?:ing)?(?: at)?|for|：|:|,|，)?\s*(?:\$|¥|￥)?\s*(\d+(?:\.\d+)?)\s*(美元|刀|usd|\$|dollars?|元|块|rmb|cny|yuan)?\s*"
         r"(?:/|per|每|一)\s*(?:(?:gpu[\s-]*|卡|张)\s*/?\s*)?(?:hr|hour|h|小时|(?<=卡)时)(?![a-z])")  # ('¥7/卡/小时')
# the unit first: '每卡时 1.8 元', '每小时 2.5 美元', 'per GPU-hour $2'
_RATE_PRE = (r"(?:每\s*(?:张|卡)?\s*(?:卡时|小时)|(?<![a-z])(?:per|/)\s*(?:gpu[\s-]*)?(?:hour|hr)(?![a-z])|hourly|时租)\s*"
             r"(?:是|为|:|：|of|at)?\s*(?:\$|¥|￥)?\s*(\d+(?:\.\d+)?)\s*(美元|刀|usd|\$|dollars?|元|块|rmb|cny|yuan)?")


def _rate_in(text: str):
    """The first hourly price in `text`, the number first ('$2.5/h', '15 元/卡时') or the unit first ('每卡时 1.8 元')."""
    hits = [m for m in (re.search(_RATE, text), re.search(_RATE_PRE, text)) if m]
    return min(hits, key=lambda m: m.start()) if hits else None


_COST_WORDS = r"便宜|花费|成本|省钱|划算|per dollar|性价比|" + w(r"cheap\w*|cost\w*|price|dollar|spend|per hour|\$/h|bill")


def several_cards(low: str, req: Request, catalog) -> list[Ask]:
    """'8x L40S, 4x H100, or 2x H200 for Qwen2.5-72B?', 'H100 at $2.5/h or A100 at $1.2/h for the same job?': the job
    on each card named (with the count and price written beside it), one ask per card, ranked by the comparison."""
    from assistant.readers.names import Names, counts_near_gpus, find_names

    if len(req.gpus) < 2 or catalog is None:
        return []
    names, work = find_names(low, catalog)
    if req.follow_up and sum(1 for sp in names.gpu_spans if _purchase_after(work[sp[1]:sp[1] + 40]) or
                             _rate_in(work[sp[1]:sp[1] + 30])) < 2:
        return []  # (a follow-up 'A100 or 910B?' is answered by the recommendation for the conversation's job; one that
        # prices each card, 'L20 单卡 2.8 万，H20 单卡 11 万', costs the conversation's job on each)
    if len(req.gpus) == 2 and req.gpus[1] == req.gpus[0] + "-pcie" and len({sp[2] for sp in names.gpu_spans}) <= 1:
        # 'both 8x H100: one is PCIe, one is SXM': one card written once, in both forms: the job on each form
        return [Ask(text=(catalog.gpu(g)[0].name.replace("NVIDIA ", "") if catalog else g), intent=req.intent,
                    update={"gpu": g, "gpus": [g], "interconnect": None}, compare="gpu") for g in req.gpus] \
            if req.intent in ("inference_speed", "serving", "training_time") else []
    if len(set(req.gpus)) == 2 and len({sp[2] for sp in names.gpu_spans}) <= 1 and \
            req.gpus[1] in catalog.variants(req.gpus[0]) and \
            catalog.gpu(req.gpus[0])[0].memory_gb != catalog.gpu(req.gpus[1])[0].memory_gb:
        # 'is an A100 40GB enough? what about the 80GB one?': one card written once, its other version by its memory
        # alone: the job on each version ('… run Yi 34B bf16, how many of each?': a model's count on each version)
        job = req.intent
        if req.model and req.intent in ("compare", "recommend", "spec"):
            job = "inference_memory" if re.search(COUNT_ASK + r"|各要几|各几张|几张|" + w(r"how many"), low) or \
                req.method in (None, "inference") else (_card_job_intent(low, req) or req.intent)
            if req.method in ("full", "lora", "qlora", "pretrain"):
                job = "training_time" if req.tokens and (req.deadline_hours or re.search(
                    r"多久|几天|多少小时|" + w(r"how long|how many (?:days|hours|weeks)"), low)) else "training_memory"  # ('1B on 100B tokens in 7 days: 80GB or 40GB?': each timed)
        counts = req.gpu_counts or {}  # ('8 张 40G 还是 4 张 80G'): each version at its own count
        return [Ask(text=(f"{counts[g]}× " if counts.get(g) else "") + catalog.gpu(g)[0].name.replace("NVIDIA ", ""),
                    intent=job, update={"gpu": g, "gpus": [g]} | ({"num_gpus": counts[g]} if counts.get(g) else {}),
                    compare="gpu") for g in req.gpus]
    every_span = sorted(((a, b, g if g in req.gpus or re.search(r"sxm|pcie|nvl|\d{2,3}\s*g(?![a-z])", low[a:b + 12])
                          else next((x for x in req.gpus if x in catalog.variants(g)), g))
                         for a, b, g in names.gpu_spans), key=lambda sp: sp[0])
    # ('A100 80G PCIe … A100 ¥6万': the bare name later is the variant named before, not a card of its own)
    chosen: dict = {}
    for sp in every_span:  # each card at the mention that gives its count ('64x H20 or 32x H100 … they say H20 …'),
        has_count = counts_near_gpus(work, Names(gpus=[sp[2]], gpu_spans=[sp]))[0] is not None  # else its first
        if sp[2] not in chosen or (has_count and not chosen[sp[2]][1]):
            chosen[sp[2]] = (sp, has_count)
    spans = sorted((sp for sp, _ in chosen.values()), key=lambda sp: sp[0])
    by_count: dict = {}
    for sp in every_span:  # '8x H100 at $24/hr, or 16x H100 at $48/hr': one card at two counts is two options
        c = counts_near_gpus(work, Names(gpus=[sp[2]], gpu_spans=[sp]))[0]
        by_count.setdefault((sp[2], c), sp)
    repeated = len(by_count) > len(spans) and all(c for _, c in by_count)
    if repeated:
        spans = sorted(by_count.values(), key=lambda sp: sp[0])
    if len(spans) < 2 or _different_jobs(low, spans):
        return []
    job = _card_job_intent(low, req)
    if job is None:
        return []
    counts = [counts_near_gpus(work, Names(gpus=[sp[2]], gpu_spans=[sp]))[0] for sp in spans]
    if job == "training_memory" and ((not all(counts) and not re.search(COUNT_ASK, low)) or req.family_flagship):
        return []  # (a training job's memory on each card needs each card's count; a bare family asks its size first)
    fmts = _values_named(low, "precision")
    own_inputs = len(set(counts)) > 1 or bool(_rate_in(low)) or per_token_cost(low) or (
        job == "training_memory" and all(counts)) or (len(fmts) >= 2 and _formats_ride_cards(low, fmts, catalog))
    # ('8 卡 H20 跑 FP8，还是 8 卡 A800 跑 BF16': each card in its own format is a set-up of its own)  # ('8x A100 40G PCIe or 8x A100 80G SXM4: does the 40G box work?')
    how_much_faster = re.search(COMPARATIVE, low) and job == "inference_speed" and not req.purchase
    if not own_inputs and not how_much_faster and job not in ("serving", "price") and \
            req.intent in ("recommend", "compare", "training_time"):
        return []  # the same job on each card: the recommendation / the time answer compares the cards itself
    asks = []
    every = sorted(names.gpu_spans, key=lambda sp: sp[0])  # each mention of each card, in order
    from assistant.readers.slots import OWN_MEASUREMENT, TPS_RATE, throughput as slots_throughput

    from assistant.readers.slots import NEEDED

    own_rates = len([m for m in re.finditer(TPS_RATE, low)
                     if not re.search(NEEDED, low[max(0, m.start() - 24):m.start()])]) >= 2
    # a rate per card, not one for the message ('… 2,400 tok/s … we need 20k tok/s': one measurement and a target)
    either = bool(re.search(r"(?:/\s*(?:hr|hour|h)|per hour|an hour|每小时|/小时)[^.。;；]{0,12}?(?:for (?:either|both|each)"
                            r"(?: option| one| setup| of them)?)|(?:either|both|each) (?:option|setup|one)s? (?:costs?|is|are|at)|"
                            r"(?:两个|两种|两套|都)(?:都|是)?\s*(?:每小时)?\s*[¥$￥]?\s*\d|价格(?:一样|相同)|同价", low))
    # ('Our cloud charges ~$6/hr for either', '两种都是 40 元/小时': one hourly price for each whole option)
    tail = low[spans[-1][1]:spans[-1][1] + 80] if spans else ""
    per_gpu_after_all = bool(spans) and bool(re.search(
        r"^[^.。;；?？]{0,40}?(?:rent(?:ed|ing)?|at|@|租|都是)\s*(?:at\s*)?(?:~|about|around|约)?\s*[$¥￥]\s*[\d.]+\s*/\s*"
        r"(?:gpu|卡)", tail)) and not re.search(r"[。？！?!\n]|\.\s", low[spans[0][0]:spans[-1][1]])
    # ('one 8x H200 node or an 8x MI300X node, rented at ~$3.50/GPU-hr'): one price per GPU-hour for every card named
    shared = req.num_gpus if not any(counts) else None  # '64 卡。用 910B 还是 H800': the count for each
    given = {c for c in counts if c}
    if shared is None and len(given) == 1 and counts[0]:  # '4 张 A100 跑 36 小时；换 H100 …': the other card at the
        shared = next(iter(given))  # same count ('used 4090, new 5090, or 2x used 3090': a count on a later option
        # only is that option's own; the ones before it are single cards)
    elif shared is None and given and not counts[0] and not re.search(r"[。？！?!\n]|\.\s", low[spans[0][0]:spans[-1][1]]):
        shared = 1  # (options listed in one sentence; a card named in an earlier sentence is no option with a count)
    # a measured rate written with one card before any other ('measured ~2,400 tok/s on one H100 … H200s?'): that
    # card's, with its count
    rate_at = re.search(TPS_RATE, low)
    if rate_at:  # the sentence the rate is written in: its card is the one measured (the nearest before the rate)
        lo = max([0] + [m.end() for m in re.finditer(r"[。！？\n]|[.!?](?=\s)", low[:rate_at.start()])])
        near = [sp for sp in every_span if lo <= sp[0] < rate_at.start()] or \
            [sp for sp in every_span if abs(sp[0] - rate_at.start()) <= 60]
    else:
        near = []
    measured_on = near[-1][2] if near and req.throughput_tokens_per_s and not own_rates and \
        re.search(OWN_MEASUREMENT, low) else None
    measured_n = counts_near_gpus(work, Names(gpus=[near[-1][2]], gpu_spans=[near[-1]]))[0] if measured_on else None
    starts = {sp[0] for sp in every}
    rates = list(re.finditer(_RATE, low))
    lead = len(rates) >= 2 and all(re.match(r"\s*(?:\d+\s*x\s*)?", low[r.end():]).end() + r.end() in starts
                                   for r in rates)
    # ('~$1.6/hr A100 and ~$2.6/hr H100': every price written right before a card, so each binds to the card after it)
    for i, (start, end, gid) in enumerate(spans):
        total, per, nodes = counts_near_gpus(work, Names(gpus=[gid], gpu_spans=[(start, end, gid)]))
        apple = catalog is not None and not total and any(g.id == gid and g.vendor == "Apple" for g in catalog.gpus)
        # ('2x 3090, 2x 4090, or a Mac Studio M3 Ultra 96GB?': one Mac, not the count written for the cards)
        update: dict = {"gpu": gid, "gpus": [gid], "num_gpus": 1 if apple else total or shared or
                        (req.num_gpus if len(spans) == 1 else None), "nodes": nodes, "gpus_per_node": per}
        m, whole = None, False
        tight = None
        for s0, e0, g0 in every:  # '$0.70/hr per L4 and $0.75/hr per A10': a price bound to a mention, before it
            if g0 == gid and not repeated:
                tight = re.search(_RATE + (r"\s*(?:\d+\s*x\s*)?$" if lead else _TIGHT_TAIL), low[max(0, s0 - 30):s0])
                if tight:
                    break
        for j, (s0, e0, g0) in enumerate(every if not tight else []):  # a price written right after any mention
            if g0 != gid or (repeated and s0 != start):  # (a card at two counts: each mention's own price)
                continue
            upto = next((sp[0] for sp in every[j + 1:] if sp[2] != gid or repeated), len(low))
            window = low[e0:upto]
            after = _rate_in(window)
            m = after or re.search(_RATE + r"[^\d]{0,6}$", low[max(0, s0 - 30):s0])
            if m:
                whole = bool(after and re.search(WHOLE_SERVER, window[:after.end() + 14]))
                n_here = total or shared
                if not whole and n_here and n_here > 1 and after and re.search(r"(?:at|@|for|：|:)\s*[$¥￥]?\s*$",
                                                                               window[:after.start() + 3]):
                    rate = float(m.group(1))
                    usd = not (m.group(2) and m.group(2) in ("元", "块", "rmb", "cny", "yuan")) and "¥" not in m.group(0)
                    whole = rate >= (15 if usd else 100)  # '16x H100 at $48/hr': no GPU-hour costs that; the set's price
                break
        if tight:
            m = tight
        tp = next((t for t in (slots_throughput(low[e0:next((sp[0] for sp in every if sp[0] > e0 and sp[2] != gid), len(low))])
                               for _, e0, g0 in every if g0 == gid) if t.get("throughput_tokens_per_s")), {}) \
            if own_rates else {}  # after any mention of this card, up to the next card
        v = tp.get("throughput_tokens_per_s")
        at = re.search(r"(?<![\d.,])" + re.escape(f"{v:g}") + r"\s*(?:tok|token|t/s)", low) if v else None
        if at and re.search(r"should|would|expect|right\?|应该|能到|能不能到", low[max(0, at.start() - 40):at.end() + 14]):
            # ('I have 2x 4090 so I should get ~90 tok/s, right?'): a speed hoped for on this card, checked, not measured
            update["tokens_per_s_per_user"] = v
            update["throughput_tokens_per_s"] = update["throughput_scope"] = None
        elif v:  # 'A：4090，2 元/小时，实测 1,800 tok/s': this card's own measurement
            update["throughput_tokens_per_s"] = tp["throughput_tokens_per_s"]
            update["throughput_scope"] = "total" if total and total > 1 else "gpu"
        elif req.throughput_tokens_per_s and measured_on and (req.tokens_per_day or req.requests_per_s):
            # 'I measured 2,400 tok/s on one H100 … 10M tokens an hour: how many H100s? would H200s need fewer?': the
            # measurement is the H100's own; on another card it is carried by the estimates' ratio (measured_gpu)
            update["num_gpus"] = None
            update["measured_num_gpus"] = measured_n
            if gid != measured_on:
                update["measured_gpu"] = measured_on
        elif req.throughput_tokens_per_s and req.measured_gpu and (req.requests_per_s or req.tokens_per_day or
                                                                    req.concurrent_users):
            # ('measured on one A100 … how many A100s? … or fewer H100s instead?'): the measured card on its own
            # measurement; the other scaled from it by the estimates' ratio
            update["num_gpus"] = None
            if gid == req.measured_gpu:
                update["measured_gpu"] = None
        elif req.throughput_tokens_per_s:
            update["throughput_tokens_per_s"] = update["throughput_scope"] = None
        if m:
            update["price_per_gpu_hour"] = float(m.group(1))
            if whole and not re.search(r"每卡|卡时|/卡|" + w(r"per (?:gpu|card)"), m.group(0)):
                # '8 卡 H800 整机 ¥90/小时': the whole machine's price, over its GPUs
                update["price_per_gpu_hour"] = float(m.group(1)) / (total or shared or 8)
            if m.group(2):
                update["currency"] = "USD" if m.group(2) in ("美元", "刀", "usd", "$", "dollar", "dollars") else "CNY"
        elif req.price_per_gpu_hour and either:  # '~$6/hr for either': each option's own hour, over its GPUs
            update["price_per_gpu_hour"] = req.price_per_gpu_hour / (total or shared or 1)
        elif req.price_per_gpu_hour and per_gpu_after_all:
            update["price_per_gpu_hour"] = req.price_per_gpu_hour  # (the same rate per GPU-hour for each)
        elif req.price_per_gpu_hour:
            update["price_per_gpu_hour"] = None  # a price written beside another card is not this card's
        window = low[end:next((sp[0] for sp in every if sp[0] > end and sp[2] != gid), len(low))]
        bought = None if m else ((req.gpu_purchase_prices[gid], req.currency) if gid in req.gpu_purchase_prices
                                 else _purchase_after(window))  # (each card's own price, read once for the message)
        if not m and (req.purchase_price or req.purchase_price_per_server or req.price_kind == "buy" or bought):
            # ('L20 单卡 2.8 万，H20 单卡 11 万': a price written right after each card is that card's)
            per_server = bool(bought and (re.search(r"/\s*台|每台|一台|整机|服务器|\d\s*卡\s*(?:机|服务器|整机)?\s*[¥￥$]?\s*\d|"
                                                    r"(?<![a-z])(?:server|node|box|machine|rig|chassis)\s*(?:is|costs?|at|for|"
                                                    r"quoted at|:|=|~)?\s*[¥￥$]\s*\d|" + w(
                r"per (?:server|node|box|machine)|a (?:server|node|box)|\d[\s-]*(?:gpu|card|x)[\s-]*(?:server|node|box|machine)"),
                window[:60]) or (total or 0) >= 8 and bought[0] >= 50_000)) and not re.match(
                r"[^¥￥$\d]{0,12}[¥￥$]?\s*[\d.,]+\s*(?:万|千|k)?\s*(?:元|块|美元|usd)?\s*(?:(?:/|每|一)\s*(?:张|块|卡)|each|"
                r"(?:/|per|a)\s*(?:card|gpu)(?![\s-]*h))", window)  # ('H20 ¥11 万/张，服务器…另算': the card's own)
            # ('L20 8卡服务器 45 万', 'H20 8卡 120 万': a price after the server's card count is the server's)
            # ('RTX 4090（¥1.6 万）、RTX 5090（¥2.2 万）': each its own; 'H20 8 卡整机 ¥110 万/台': a whole server's)
            update["purchase_price_per_server" if per_server else "purchase_price"] = bought[0] if bought else None
            update["purchase_price_per_server" if not per_server else "purchase_price"] = None
            if bought and bought[1]:
                update["currency"] = bought[1]
        if update.get("purchase_price_per_server") and re.search(COUNT_ASK, low) and (update.get("num_gpus") or 8) == 8:
            # 'H20 8 卡整机 ¥110 万/台 … 买几台': the server's size is given, how many to buy is asked
            update["num_gpus"], update["gpus_per_node"] = None, 8
        if req.used:  # '二手 RTX 3090' beside new cards: only the card it is written before is used
            update["used"] = bool(re.search(r"(?:二手|旧|" + w(r"used|second[\s-]*hand|refurbished") + r")\s*(?:的)?\s*(?:nvidia\s*)?"
                                            r"(?:rtx\s*|geforce\s*)?$", low[max(0, start - 16):start]))
        if job == "inference_speed" and (per_token_cost(low) or re.search(
                r"吞吐|(?<![单一1])并发|" + w(r"throughput|serv\w*|users|concurren\w*") if how_much_faster else
                r"吞吐|(?<![单一1])并发|成本|性价比|" + w(r"throughput|serv\w*|users|concurren\w*|cost\w*|dollar|cheap\w*|price"),
                low)) and not (req.batch == 1 and not req.concurrent_users) and not (req.concurrent_users or req.team_size):
            # ('单并发': one stream, not full load; 'me + 4 devs': the team's load, not the most the card can hold)
            update["max_throughput"] = True  # per dollar / serving: at full load; 'which is faster for me': one stream
        if i > 0 and req.precision:  # '… in FP8 on 2x H100 … could 2x H200 do it in bf16 instead?': the card's own format
            from assistant.readers.slots import precision as precision_in

            nxt = spans[i + 1][0] if i + 1 < len(spans) else len(low)
            own = precision_in(low[max(0, start - 24):start] + " " + low[end:min(nxt, end + 60)]).get("precision")
            if own and own != req.precision:
                update["precision"] = own
            if own and req.checkpoint_format and own in ("fp16", "bf16", "fp32") and \
                    re.search(r"plain|native|full|unquantized|original|原版|不量化|满血", low[end:min(nxt, end + 60)] +
                              low[max(0, start - 24):start]) or (own and req.checkpoint_format and own in ("fp16", "bf16")
                                                                 and own not in req.checkpoint_format):
                # '… Q4_K_M on an A100 40GB? and would the 80GB A100 run it in plain FP16?': this card's own 16-bit
                update |= {"precision": own, "checkpoint_format": None}
        after_card = low[end:min(next((sp[0] for sp in every if sp[0] > end and sp[2] != gid), len(low)), end + 30)]
        own_fmt = _values_named(after_card, "precision")
        if own_fmt:  # '2x H100 SXM fp8, 4x L40S awq int4, or 1x H200 fp8': each option in the format written with it
            update["precision"] = own_fmt[0][1]
            update["checkpoint_format"] = None
        if len(set(req.models or [])) == len(spans) >= 2:
            # ('will gpt-oss-20b run on my laptop 4080 (12GB)? and can I run gpt-oss-120b on my desktop 4090?'): each
            # card with the model written in its own question
            lo = max([0] + [m.end() for m in re.finditer(r"[?？。;；\n]|(?<![a-z])and (?=can|will|does|would|what|how)",
                                                          low[:start])])
            hi = next((lo2 for lo2 in (m.start() for m in re.finditer(r"[?？。;；\n]", low)) if lo2 >= end), len(low))
            mine = find_names(low[lo:hi], catalog)[0].models
            if len(mine) == 1 and mine[0] in req.models and mine[0] != req.model:
                update |= {"model": mine[0], "models": [mine[0]], "model_text": None}
        label = (f"{total}× " if total else "") + catalog.gpu(gid)[0].name.replace("NVIDIA ", "")
        asks.append(Ask(text=label, intent=job, update=update, compare="gpu"))
    if sum(1 for a in asks if "checkpoint_format" in a.update) < 2:  # (one card's format alone is the message's own)
        for a in asks:
            if "checkpoint_format" in a.update and a.update["checkpoint_format"] is not None or \
                    ("checkpoint_format" in a.update and not a.update.get("precision")):
                a.update.pop("checkpoint_format")
                if a.update.get("precision") == req.precision:
                    a.update.pop("precision")
    if asks and job == "training_time" and req.method in ("lora", "qlora", "full") and re.search(
            r"(?<![a-z])(?:and|also|then|plus)\s+(?:to\s+)?serv(?:e|ing)|24\s*/\s*7|然后.{0,6}(?:推理|上线|部署)|同时.{0,6}(?:推理|上线|部署)|"
            r"(?:还要|也要|并且|再)\s*(?:推理|上线|部署)", low):
        # ('LoRA weekly on 50M tokens AND serve it 24/7: H100 or H200, or mix?'): the serving job on each card too
        for a in list(asks):
            gid = a.update.get("gpu")
            name = catalog.gpu(gid)[0].name.replace("NVIDIA ", "") if gid else a.text
            fp8 = bool(gid) and bool(catalog.gpu(gid)[0].fp8_dense_tflops)  # (served in FP8 where the card computes it)
            asks.append(Ask(text=(f"推理：{name}" + ("（FP8）" if fp8 else "") if req.lang == "zh" else
                                  f"serve: {name}" + (" (FP8)" if fp8 else "")), intent="serving",
                            update={"gpu": gid, "gpus": [gid] if gid else [], "num_gpus": None, "method": "inference",
                                    "methods": [], "tokens": None, "price_per_gpu_hour": a.update.get("price_per_gpu_hour")}
                            | ({"precision": "fp8"} if fp8 else {})))
    return asks


def _card_job_intent(low: str, req: Request) -> str | None:
    """What to compute on each card: the serving plan (a load is stated), the training time (a training job with its
    tokens), the speed at full load (an inference job), or the hourly cost (prices per card, no job to time)."""
    if req.concurrent_users or req.requests_per_s:
        return "serving"
    if req.model and ((req.daily_active_users or 0) >= 50 or ((req.team_size or 0) >= 50 and (
            req.gpu_purchase_prices or req.purchase_price_per_server or req.purchase_price))) and req.method in (None, "inference"):
        return "serving"  # ('serve gpt-oss-120b for ~200 employees … 2x PRO 6000, 1x H100 NVL or 4x 5090?'): each at the
        # load (a handful of colleagues is the purchase table's users, not a user base)
    if req.model and re.search(r"(?:最多|更多|多少|几)\s*(?:个|路)?\s*(?:并发|用户|人|路)|" + w(
            r"(?:most|more|max(?:imum)?|how many) (?:concurrent )?(?:users|sessions|requests|sequences|chats|streams)|"
            r"most concurrency|highest concurrency"), low) and req.method in (None, "inference"):
        return "serving"  # 'which gives the most concurrent users?': each set-up's capacity at the context written
    if req.tokens and (req.method in ("full", "lora", "qlora", "pretrain") or req.intent in ("training_time", "cost")):
        return "training_time"
    if req.model and (req.batch_output_tokens or req.batch_items):
        return "inference_speed"  # ('总共要生成 50 亿 token … 哪个更划算'): each card's time and cost for the offline job
    if _rate_in(low) and re.search(_COST_WORDS, low) and not req.tokens:
        return "cost"
    if not req.model and re.search(r"租金|价格|价钱|多少钱|贵|便宜|" + w(r"price\w*|rent\w*|cost\w*|cheap\w*|expensive|per hour"), low):
        return "price"  # 'H200 和 H100 租金差多少': the price of each card
    speedish = re.search(r"速度|吞吐|多快|成本|便宜|性价比|" + w(r"fast\w*|speed|throughput|tokens?/s|tok/s|t/s|cheap\w*|cost\w*|"
                                                          r"dollar|price"), low) or per_token_cost(low)
    if req.model and req.intent == "inference_memory" and not speedish:
        return "inference_memory"  # 'can I run it on 8x H200? and on 8x H100?': does it fit on each
    if req.model and req.method in ("full", "lora", "qlora", "pretrain") and not req.tokens and \
            req.intent in ("training_memory", "recommend", "compare"):
        return "training_memory"  # 'A800 和 H800 差在哪？全参训 32B 要几台？': the job's memory and count on each card
    if req.model and (req.method == "inference" or req.max_throughput or
                      req.intent in ("inference_memory", "inference_speed", "serving") or
                      re.search(r"推理|部署|服务|上线|本地跑|跑" + "|" + w(r"serv\w*|inference|deploy\w*|host\w*|run\w*|tokens?/s|tok/s|"
                                                                     r"throughput"), low)):
        return "inference_speed"
    return None


def _purchase_after(window: str) -> tuple[float, str | None] | None:
    """A purchase price written right after a card ('RTX 4090 24G（¥1.6 万）', '5090 at $1,999'), not an hourly rate."""
    from assistant.readers.money import MONEY, _money, _purchase_amount

    for m in re.finditer(MONEY, window[:40]):
        if not m.group("v") or re.match(r"\s*(?:/|per|每|一)\s*(?:gpu[\s-]*|卡|张)?(?:hr|hour|h|小时|时|月|month)", window[m.end():]):
            continue
        if _purchase_amount(m, window):
            return _money(m)
    return None


# --- several models -------------------------------------------------------------------------------------------------
def _active(spec) -> float:
    from tools.params import count_parameters

    return float(count_parameters(spec).active)


def _is_card(catalog, name: str, req: Request) -> bool:
    try:
        gid = catalog.gpu(name)[0].id
    except (LookupError, ValueError):
        return False
    return gid in (req.gpus or []) or gid == req.gpu


def several_models(low: str, req: Request, catalog) -> list[Ask]:
    """'how fast is Llama 3 8B on it? and 70B?', 'Qwen2.5-7B 和 Qwen2.5-14B 分别要多少显存': the same question for each
    model named; a bare size after a named model is that model's sibling of that size."""
    if catalog is None or not req.model or req.intent in ("compare", "recommend", "published_run", "price", "spec") or (
            req.intent == "cost" and len(set(req.models or [])) < 2):
        return []  # ('gpt-oss-120b vs Qwen3-235B vs Llama 70B on our box: cheapest per token?': each model's cost)
    ids = list(dict.fromkeys(req.models or [req.model]))
    try:
        first = catalog.model(req.model)[0]
    except (LookupError, ValueError):
        return []
    named = re.escape(str(first.params_total // 10**9))
    shape = re.fullmatch(r"[\d.]+b-a([\d.]+)b", req.model)
    if shape:  # '120B total / 12B active': the 12B is the same model's active count
        named = f"(?:{named}|{re.escape(shape.group(1))})"
    for m in re.finditer(r"(?:\band\b|\babout\b|和|还有|呢|还是(?:用)?|或者?|or|vs\.?|/|、|，|,|\?|？)\s*(?:the\s+|a\s+)?(\d+(?:\.\d+)?)\s*b(?![a-z0-9])"
                         r"(?!\s*(?:个\s*)?(?:tokens?|token|词元|的?数据|条|samples?|examples?))", low):  # '260B tokens' is data
        size = float(m.group(1)) * 1e9
        if _is_card(catalog, m.group(1) + "b", req):
            continue  # '910B' beside an Ascend question is the card, not a 910B model
        if first.moe and abs(_active(first) / size - 1) < 0.1:
            continue  # 'DeepSeek-V3 (671B total, 37B active)': the named model's own active count
        if re.match(r"\s*(?:params?\s*|parameters?\s*)?(?:active|activated|激活|活跃)", low[m.end():m.end() + 16]) or \
                re.search(r"(?:active|activated|激活)\s*(?:params?|parameters?|参数)?\s*(?:of|:|：|=|为|是)?\s*$",
                          low[max(0, m.start(1) - 24):m.start(1)]):
            continue  # 'GLM-4.5-Air (106B 总参, 12B 激活)': an active count is a shape, never a second model
        if re.fullmatch(named, m.group(1)) or any(abs(catalog.model(i)[0].params_total / size - 1) < 0.1 for i in ids):
            continue
        line = first.id.rsplit("-", 1)[0]
        sib = [r for r in catalog.models if r.id.rsplit("-", 1)[0] == line and abs(r.params_total / size - 1) < 0.1] or \
              [r for r in catalog.models if r.family == first.family and abs(r.params_total / size - 1) < 0.1]
        ids.append(sib[0].id if sib else f"{float(m.group(1)):g}b")
    if len(ids) < 2:
        return []
    def label(i: str) -> str:
        try:
            return catalog.model(i)[0].name
        except (LookupError, ValueError):
            return i
    return [Ask(text=label(i), intent=req.intent, update={"model": i, "models": [i]}, compare="model") for i in ids[:4]]


# the nouns of a listed ask ('…: memory per GPU, time, cost?', '显存、时间、成本分别多少') -> what each asks
_LISTED = (("memory", r"(?:memory|mem|vram)(?: per gpu| per card)?|显存|每卡显存|内存占用"),
           ("time", r"time|how long|duration|wall[\s-]?clock(?: time)?|wall[\s-]?time|training time|eta|时间|多久|耗时|时长|工期|"
                    r"(?:#\s*|no\.?\s*of\s+)?(?:(?:optimizer|training|number of|how many|total|the)\s+)*steps?|步数|多少步|几步|step\s*数|"
                    r"(?:global[\s-]*batch|gbs)\s*(?:的)?\s*(?:token|tokens)\s*(?:数|量)?|tokens? per (?:optimizer )?step|每步\s*token\s*数?|"
                    r"(?:一|每)步\s*(?:多少|几个)?\s*tokens?"),
           ("cost", r"cost|costs|price|bill|budget|spend|费用|成本|花费|多少钱|预算|价格"),
           ("gpus", r"(?:how many |number of |# ?)?(?:gpus?|cards?)(?: count| needed)?|卡数|几张卡|多少卡|多少张卡"),
           ("speed", r"speed|throughput|tokens?/s|tok/s|速度|吞吐"),
           ("latency", r"latency|ttft|itl|延迟|首字延迟"))


def listed_asks(low: str, req: Request) -> list[Ask]:
    """A list of bare nouns that ends a message ('…, 2 epochs on 500M tokens, $1.8/GPU-h: memory per GPU, time, cost?',
    '显存、时间、成本？'): one ask per noun, each answered by the tool that answers it for this job."""
    tail = QUESTION_TAIL.search(low.strip())
    if tail:  # 'Per-GPU memory? steps? wall time? cost?': each fragment one ask
        parts = [x.strip(" .。") for x in re.split(r"[?？]", tail.group(1)) if x.strip(" .。")]
        asks = _listed(parts, req)
        if asks:
            return asks
    m = re.search(r"[:：—]\s*([^:：—]{3,90}?)\s*[?？]?\s*$", low.strip()) or \
        re.search(r"(?:帮忙算下|帮忙算一下|帮我算下|帮我算一下|算一下|算下|请算|给出|" + w(r"calculate|estimate|compute|give me")
                  + r")\s*[:：]?\s*([^。；;.?？]{3,90}?)\s*[?？。.]?\s*$", low.strip()) or \
        re.search(r"(?:^|[。；;.?？])\s*([^。；;.?？:：]{3,60}?)\s*(?:分别)?(?:是)?(?:多少|各多少)?\s*[?？]\s*$", low.strip()) or \
        re.search(r"(?:^|[。；;.?？])\s*([^。；;.?？:：]{3,60}?)\s*(?:分别|各)(?:是)?(?:多少|要多少|多久)\s*[?？]?\s*$", low.strip())
    if not m:
        return []
    parts = [x.strip(" ?？.。") for x in re.split(r"\s*(?:,|，|、|/|&|\band\b|\bplus\b|和|以及|还有|及)\s*", m.group(1))]
    return _listed([x for x in parts if x], req)


# a message that ends in a run of short questions: 'Per-GPU memory? steps? wall time? cost?'
QUESTION_TAIL = re.compile(r"((?:\s*[^.?!。？:：;；,，]{2,30}[?？]){2,6})\s*$")


def _listed(parts: list[str], req: Request) -> list[Ask]:
    """One ask per listed noun (memory, time, cost, GPUs, speed, latency), or none when any part is something else."""
    if len(parts) < 2:
        return []
    trains = req.method in ("full", "lora", "qlora", "pretrain") or req.intent.startswith("training")
    intents = {"memory": "training_memory" if trains else "inference_memory",
               "time": "training_time" if trains else "inference_speed",
               "cost": "cost", "gpus": "training_memory" if trains else "serving",
               "speed": "training_time" if trains else "inference_speed",
               "latency": "serving" if not trains else None}
    asks: list[Ask] = []
    for part in parts:
        kind = next((k for k, pat in _LISTED if re.fullmatch(
            r"(?:the |total |per[\s-]?gpu |peak |is (?:the )?|训练|推理|总共|一共|总|共|要|需要|大概|大约|每卡)*(?:" + pat +
            r")(?: per gpu| each|\s*分别|\s*各)?\s*(?:多少|是多少|要多少|大概多少|有多少|多大|多长|够不够|够吗|够用吗|够|"
            r"(?:is )?(?:ok|enough|fine)|fits?)?", part)), None)
        if kind is None:
            return []  # a list of anything else ('seq 4096, batch 8') is inputs, not asks
        intent = intents[kind]
        same = next((i for i, a in enumerate(asks) if a.intent == intent), None)
        if same is not None:  # 'steps? wall time?': one answer holds both, named for both
            asks[same] = asks[same].model_copy(update={"text": f"{asks[same].text}, {part}"})
        elif intent:
            asks.append(Ask(text=part, intent=intent))
    return asks if len(asks) >= 2 else []


_FORM = r"(nvl|sxm\d?|pcie|hgx|dgx)"


def _form_difference(low: str, req: Request, catalog) -> Ask | None:
    """'is NVL the same as SXM?', 'NVL 和 SXM 有什么区别': two forms of the card the message names, compared (their
    memory, bandwidth, compute and link); None unless both forms exist in the table for that card."""
    m = re.search(rf"(?<![a-z]){_FORM}(?![a-z0-9])\s*(?:is|are)?\s*(?:the\s+)?same\s+as\s+(?:the\s+)?(?:\w+\s+)?{_FORM}(?![a-z0-9])|"
                  rf"(?:is|are)\s+(?:the\s+)?(?:\w+\s+)?{_FORM}\s+(?:the\s+)?same\s+as\s+(?:the\s+)?(?:\w+\s+)?{_FORM}|"
                  rf"{_FORM}\s*(?:和|跟|与|vs\.?|versus)\s*{_FORM}\s*(?:一样吗|一样么|是一样的吗|有什么区别|有啥区别|区别|差别|(?<![a-z])difference)",
                  low)
    if not m or catalog is None or not req.gpu:
        return None
    a, b = [g for g in m.groups() if g][:2]
    stem = req.gpu.split("-")[0]
    fam = {g.id: g for g in catalog.gpus if g.id.split("-")[0] == stem}
    pick = lambda f: next((gid for gid, g in fam.items() if f.rstrip("0123456789") in (g.form_factor or "").lower()
                           or gid.endswith("-" + f.rstrip("0123456789"))), None)
    ga, gb = pick(a), pick(b)
    if not ga or not gb or ga == gb:
        return None
    return Ask(text=m.group(0), intent="compare", update={"gpu": ga, "gpus": [ga, gb], "num_gpus": None, "model": None,
                                                         "models": []})


def find_asks(text: str, req: Request, catalog=None) -> list[Ask]:
    """The asks of a message (see _find_asks); an ask whether the dearer of the cards named is worth it is not left
    'not answered': the cards' speed against their prices answers it (terms.card_worth)."""
    from assistant.terms import WORTH_ASK

    asks = _find_asks(text, req, catalog)
    if len(set(req.gpus or [])) >= 2:
        asks = [a for a in asks if not (a.intent == "out_of_scope" and re.search(WORTH_ASK, a.text.lower()))]
        if len(asks) == 1 and not asks[0].compare and not asks[0].update:
            return []
    return asks


def _find_asks(text: str, req: Request, catalog=None) -> list[Ask]:
    """The asks of a message (empty for a message with one ask): alternatives first, then several cards, then several
    values, then several intents. Alternatives computed by another tool than the message's own question come after
    it ('how long on 16 A100s? and do we need offload?': the time, then offload with and without)."""
    if req.intent in ("explain", "fact_check") and catalog is not None:
        from assistant.readers.items import difference_asks

        diff = difference_asks(text, req, catalog)
        if diff:  # '满血和蒸馏啥区别？厂商说 4 张 4090 能跑满血，靠谱吗': the difference, then the claim
            return diff
    if req.intent in ("explain", "out_of_scope", "fact_check", "published_run"):
        return []
    if catalog is not None:
        from assistant.readers.items import scenario_asks

        two = scenario_asks(text, req, catalog)
        if two:  # 'A 方案 …；换成 B（own price, own throughput）呢？': each set-up's cost, compared
            return two
    if req.measured_model or req.measured_gpu or req.measured_num_gpus or req.measured_tokens:
        return []  # an earlier run and the job asked: one job, its counts and cards are not alternatives
    if req.follow_up and req.compared and req.compared.get("setting") in SETTINGS and \
            req.compared["setting"] not in req.stated and len(req.compared.get("values") or []) >= 2:
        # 'BF16 or FP8?' … 'and on 8x H100?': the alternatives of the thread, compared again on the changed job
        setting, zh = req.compared["setting"], req.lang == "zh"
        return [Ask(text=_label(setting, v, zh), intent=req.intent, update={setting: v}, compare=setting)
                for v in req.compared["values"][:3]]
    if req.follow_up and req.compared and req.compared.get("setting") == "gpu" and "gpu" not in req.stated and \
            catalog is not None and re.search(THREAD_DIFFERENCE, text.lower()):
        # '换成 8 张 4090 呢' … '电费差多少': the thread's two cards, each on the same job, and the difference
        counts = req.compared.get("num_gpus") or [None] * len(req.compared["values"])
        full = {"max_throughput": True} if re.search(r"吞吐|" + w(r"throughput"), text.lower()) and not \
            re.search(_ONE_STREAM, text.lower()) and not req.batch else {}  # ('那吞吐大概各是多少': each at full load)
        return [Ask(text=(f"{n}× " if n else "") + catalog.gpu(g)[0].name.replace("NVIDIA ", ""), intent=req.intent,
                    update={"gpu": g, "gpus": [g], "num_gpus": n} | full, compare="gpu")
                for g, n in zip(req.compared["values"][:3], counts) if any(x.id == g for x in catalog.gpus)]
    from assistant.readers.rules import fine_tuned_model, quoted_runs, unquote_names

    text, _ = quoted_runs(fine_tuned_model(unquote_names(text)))  # ('its a finetune we did': where the served model came from)  # ('405B took 30.84M H100 GPU hours': a quoted run's figures are no ask's inputs)
    low = unicodedata.normalize("NFKC", text.replace("，", "， ")).lower()
    if req.intent == "spec":
        return several_cards(low, req, catalog) if len(req.gpus) >= 2 else []
    if catalog is not None:
        from assistant.readers.items import difference_asks, item_asks, model_clause_asks

        from assistant.readers.items import method_setups

        items = item_asks(text, req, catalog) or difference_asks(text, req, catalog) or \
            model_clause_asks(text, req, catalog) or method_setups(text, req, catalog)
        if items:  # '1. … 2. … 3. …', or a job of its own for each model named: each read as its own question
            return items
        from assistant.readers.whatif import what_if_asks

        whatif = what_if_asks(text, req, catalog)
        if whatif:  # '… how many fit? And if requests average ~8k tokens?': the question, then its what-if
            return whatif
    split = layouts(low, req)
    if split:  # 'one TP=8 instance or 4 replicas at TP=2?': the node split each way, compared
        return split
    jobs = two_jobs(low, req, catalog) or train_and_serve(low, req)
    if jobs:  # a training job and a serving job: each sized (and for one purchase, the machine for both)
        return jobs
    terms = rental_terms(low, req)
    if terms:  # 'on-demand $3.50 or a 1-yr commit at $2.30 (pay all hours)': each way of renting, against buying
        return terms
    plans = strategies(low, req, catalog)
    if plans:  # 'ZeRO-3, FSDP or ZeRO-2 + offload: which runs?': each strategy sized on the GPUs named
        return plans
    alts = alternatives(low, req, catalog)
    if alts and req.model and alts[0].intent != req.intent and req.intent in ("training_time", "serving", "cost") and \
            not (req.intent == "cost" and alts[0].intent == "inference_speed" and not (req.period_hours or req.tokens)):
        main = Ask(text=_intent_label(req), intent=req.intent,
                   update={k: None for k in {a for x in alts for a in x.update} if k in ("offload",)})
        asks = [main, *alts]
    else:
        asks = (alts or several_cards(low, req, catalog) or several_models(low, req, catalog)
                or several_formats(low, req) or several_values(low, req) or several_loads(low, req)
                or listed_asks(low, req) or several_intents(low, req, catalog))
        if alts and req.model:
            # '…要不要上 deepspeed？大概要训多久': the alternatives answer one ask; another ask of a different kind in
            # the message (the time) is answered after them, on the job as stated
            seen = {a.intent for a in alts}
            asks = alts + [a for a in several_intents(low, req, catalog)
                           if a.intent not in seen and a.intent in ("training_time", "training_memory", "cost",
                                                                    "inference_speed", "serving", "inference_memory")]
        # (a list whose every item is a figure asked is read as it is written, before the clause-by-clause reading)
        # (formats in items of their own carry each item's GPU count: 'A）4 张跑 BF16；B）2 张跑 AWQ')
    if alts and req.model and req.num_gpus and "num_gpus" in req.stated:
        # ('how many H100 do we need in bf16 vs fp8? and on one 8x H100 node, what's the longest context?'): the count
        # written in a later clause of its own is that clause's; the alternatives are sized for the fewest GPUs
        for at, c in enumerate(_clauses(low)):
            n = _clause_gpus(c)
            if at and n == req.num_gpus and re.search(CONTEXT_LEFT, c) and not _clause_gpus(_clauses(low)[0]) and \
                    re.search(COUNT_ASK, low):
                unstated = [k for k in req.stated if k not in ("num_gpus", "nodes", "gpus_per_node")]
                asks = [a.model_copy(update={"update": a.update | {"num_gpus": None, "nodes": None, "gpus_per_node": None,
                                                                    "stated": unstated}})
                        for a in asks] + [Ask(text=(f"{n} 张卡上的最长上下文" if req.lang == "zh" else
                                                    f"longest context on {n} GPUs"),
                                              intent="inference_memory", update={"num_gpus": n, "precision": None})]
                break
    forms = _form_difference(low, req, catalog)
    if forms:  # 'H100 NVL x4 … is NVL the same as SXM? does it fit?': the two forms of the card compared, beside the job
        asks = (asks or [Ask(text=_intent_label(req), intent=req.intent)]) + [forms]
    clauses = _clauses(low)
    decided = any(a.compare for a in asks)  # alternatives are compared with a pick: 'pick one and say why' is that
    extra = [Ask(text=c, intent="out_of_scope") for at, c in enumerate(clauses) if _unanswerable(c, at)
             and not (decided and re.search(_DECISION, c)) and not re.search(_MINIMUM, c)]
    if extra:  # an ask no calculator answers: listed under 'Not answered', never dropped in silence
        asks = (asks or [Ask(text=_intent_label(req),
                             intent=req.intent)]) + extra
    return asks
