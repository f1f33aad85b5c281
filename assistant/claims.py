"""Fact-checking a pasted paragraph: split it into sentences, recognise the claims we can compute,
and check each against the tables and calculators. Unrecognised sentences are left alone."""
from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel


class ClaimCheck(BaseModel):
    claim: str
    verdict: str  # right | wrong | misleading
    correct: str
    source: str
    figures: dict[str, float] = {}


def sentences(text: str) -> list[str]:
    """Sentences of a Chinese or English paragraph."""
    parts = re.split(r"(?<=[。！？!?；;])\s*|\n+|(?<=[.])\s+(?=[A-Z*])", text)
    return [p.strip(" *•-") for p in parts if len(p.strip()) > 6]


def _lora(s, ctx):
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    if not (re.search(r"lora", s, re.I) and re.search(r"70\s*b", s, re.I) and re.search(r"a100|80\s*gb", s, re.I)):
        return None
    model, a100 = ctx.catalog.model("llama-3.1-70b")[0], ctx.catalog.gpu("a100-80gb")[0]
    q = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=a100, method="qlora"))
    lo = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=a100, method="lora"))
    says_lora = re.search(r"(?<!q)lora", s, re.I) is not None
    return ClaimCheck(claim=s, verdict="misleading" if says_lora else "right",
                      correct=f"QLoRA fits one A100 80GB ({q.per_gpu_gb:.1f} GB); 16-bit LoRA does not "
                              f"({lo.per_gpu_gb:.1f} GB per GPU, bf16 weights alone {lo.breakdown_gb['weights']:.1f} GB; "
                              f"needs {lo.min_gpus} GPUs)", source="gpu-advisor size train; docs/errata-source-article")


def _full_count(s, ctx):
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    m = re.search(r"(?:至少|at least)\D{0,6}?(\d+)\s*(?:张|x|块)?\s*a100", s, re.I)
    if not (m and re.search(r"全量|全参|full", s, re.I)):
        return None
    r = estimate_training_memory(TrainingMemoryRequest(model=ctx.catalog.model("70b")[0],
                                                       gpu=ctx.catalog.gpu("a100-80gb")[0], method="full", num_gpus=8))
    off = estimate_training_memory(TrainingMemoryRequest(model=ctx.catalog.model("70b")[0],
                                                         gpu=ctx.catalog.gpu("a100-80gb")[0], method="full", num_gpus=8,
                                                         offload="optimizer"))
    n = int(m.group(1))
    return ClaimCheck(claim=s, verdict="wrong" if n < r.min_gpus else "right",
                      correct=f"a full fine-tune of a 70B model needs {r.min_gpus} A100 80GB with ZeRO-3 (16 B/param of "
                              f"model states ~1.12 TB); 8 work only with the optimizer offloaded to ~{off.host_ram_gb / 1000:.2f} TB "
                              "of host RAM", source="gpu-advisor size train; docs/errata-source-article")


def _speed(s, ctx):
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    if not (re.search(r"20\s*%?\s*[-–~到至]\s*30\s*%", s) and re.search(r"h100|a100", s, re.I)):
        return None
    m = ctx.catalog.model("llama-3.1-8b")[0]
    h = estimate_training_time(TrainingTimeRequest(model=m, gpu=ctx.catalog.gpu("h100")[0], num_gpus=8, tokens=1e10))
    a = estimate_training_time(TrainingTimeRequest(model=m, gpu=ctx.catalog.gpu("a100-80gb")[0], num_gpus=8, tokens=1e10))
    return ClaimCheck(claim=s, verdict="wrong",
                      correct=f"dense BF16 is 989.4 vs 312 TFLOPS; the same job takes {a.wall_hours / h.wall_hours:.1f}x as "
                              "long on A100 (published speedups 2-3x), not 20-30% longer",
                      figures={"time_ratio": round(a.wall_hours / h.wall_hours, 2)},
                      source="GPU table; gpu-advisor time train; docs/errata-source-article")


def _gpus_named(s, ctx):
    return [rec for _, kind, rec in ctx.catalog.mentions(s) if kind == "gpu"]


def _nvlink(s, ctx):
    m = re.search(r"nvlink\s*(\d)(?:\.0)?", s, re.I)
    gpus = _gpus_named(s, ctx)
    if not m or not gpus:
        return None
    said = int(m.group(1))
    g = gpus[0]
    actual = re.search(r"nvlink\s*(\d)", g.interconnect, re.I)
    real = int(actual.group(1)) if actual else None
    wrong = real is None or said != real or (re.search(r"(\d{3,4})\s*gb/s", s, re.I) and g.nvlink_gbps and
                                               float(re.search(r"(\d{3,4})\s*gb/s", s, re.I).group(1)) != g.nvlink_gbps)
    return ClaimCheck(claim=s, verdict="wrong" if wrong else "right",
                      correct=f"{g.name}: {g.interconnect.split(';')[0]}, {g.nvlink_gbps or 0:g} GB/s per GPU"
                              + (f", {g.gpus_per_nvlink_domain} GPUs per NVLink domain" if g.gpus_per_nvlink_domain else ""),
                      source="gpus.yaml (NVIDIA datasheets)")


def _architecture(s, ctx):
    m = re.search(r"半人马座|centaur\w*|hopper|ampere|blackwell|ada lovelace|ada\b|volta", s, re.I)
    gpus = _gpus_named(s, ctx)
    if not m or not gpus or not re.search(r"架构|architecture|based on|基于|是", s, re.I):
        return None
    g = gpus[0]
    said = m.group(0).lower()
    right = said not in ("半人马座",) and not said.startswith("centaur") and said.split()[0] in g.architecture.lower()
    return ClaimCheck(claim=s, verdict="right" if right else "wrong",
                      correct=f"{g.name} is {g.architecture}", source="gpus.yaml; NVIDIA architecture whitepapers")


def _checkpoint(s, ctx):
    if not re.search(r"50\s*[-–~到至]\s*100\s*(步|steps?)", s, re.I):
        return None
    return ClaimCheck(claim=s, verdict="misleading",
                      correct="the interval follows from checkpoint size, write bandwidth and failure rate "
                              "(Young/Daly: sqrt(2 x write time x MTBF)); e.g. a 70B full fine-tune on 512 GPUs at 5 GB/s "
                              "is ~3 h, thousands of steps (gpu-advisor plan checkpoint)", source="docs/checkpointing")


def _bandwidth(s, ctx):
    if not re.search(r"2\s*tb/s", s, re.I):
        return None
    g, p = ctx.catalog.gpu("a100-80gb")[0], ctx.catalog.gpu("a100-80gb-pcie")[0]
    return ClaimCheck(claim=s, verdict="right", correct=f"about right: {g.memory_bandwidth_gbps:g} GB/s (80GB SXM), "
                      f"{p.memory_bandwidth_gbps:g} GB/s (80GB PCIe)", source="gpus.yaml (NVIDIA datasheet)")


CHECKERS: list[Callable] = [_lora, _full_count, _speed, _nvlink, _architecture, _checkpoint, _bandwidth]


def check_paragraph(text: str, ctx) -> list[ClaimCheck]:
    """Every recognisable claim in `text`, checked."""
    out: list[ClaimCheck] = []
    for s in sentences(text):
        for checker in CHECKERS:
            res = checker(s, ctx)
            if res is not None:
                out.append(res)
    return out


# 'H20 训练 70B 跟 H100 一样快', 'the H20 trains it as fast as an H100': two cards claimed equally fast
_SAME_ZH = r"((?:(?!。|；|;|\.\s).){1,80}?)\s*(?:跟|和|与|同)\s*([^，,。.;；]{1,30}?)\s*(?:一样|差不多|相当|不相上下)\s*(?:快|强|好)"
_SAME_EN = (r"((?:(?!;|\.\s).){1,80}?)\s+(?:is|are|runs?|trains?)\s+(?:[\w.]+\s+){0,4}?(?:as fast as|just as fast as|"
            r"on par with|the same (?:speed )?as)\s+([^,.;?]{1,30})")


def _cards_compared(question: str, patterns: tuple[str, ...], catalog=None) -> tuple[list[str], list[str]] | None:
    """The GPUs named on each side of the first pattern (two groups) that matches, in the order written; None when
    none matches or a side names no card."""
    from assistant.readers.names import find_names
    from knowledge.catalog import default_catalog

    low = question.lower()
    m = next((x for x in (re.search(p, low) for p in patterns) if x), None)
    if not m:
        return None
    cat = catalog or default_catalog()
    a, b = (find_names(x, cat)[0].gpus for x in (m.group(1), m.group(2)))
    return (a, b) if a and b else None


def equal_speed_claim(question: str, catalog=None) -> tuple[str, str] | None:
    """The two GPU ids of a claim that they are equally fast, in the order written, or None."""
    sides = _cards_compared(question, (_SAME_ZH, _SAME_EN), catalog)
    if not sides or sides[0][0] == sides[1][0]:
        return None
    return sides[0][0], sides[1][0]


_FASTER_ZH = r"([^，,。.;；]{1,40}?)\s*(?:推理|训练|跑)?\s*比\s*([^，,。.;；]{1,24}?)\s*(?:还|更|要)?\s*(?:快|强|高|好)"
_FASTER_EN = r"([^,;.]{1,40}?)\s+(?:is|are|runs?|will be|would be)\s+(?:\w+\s+){0,2}?(?:faster|quicker|better|higher)\s+than\s+(?:the\s+)?([^,;.?]{1,24})"


def faster_claim(question: str, catalog=None) -> tuple[str, str] | None:
    """(the card claimed faster, the other) for 'A 推理比 B 快', 'A is faster than B', in the order written; None.
    (The card nearest the comparison word on the first side: '8 卡 H800 … H20 比 H100 快' claims the H20.)"""
    sides = _cards_compared(question, (_FASTER_ZH, _FASTER_EN), catalog)
    if not sides or sides[0][-1] == sides[1][0]:
        return None
    return sides[0][-1], sides[1][0]


EQUAL_WITHIN = 1.1  # two set-ups within 10% of each other are 'as fast' (an assumption, said in the verdict)


def equal_claim_verdict(cards: tuple[str, str], ratio: float, trains: bool, zh: bool) -> str:
    """The claim judged by the computed gap (slower time over faster, or faster rate over slower)."""
    a, b = cards
    if ratio <= EQUAL_WITHIN:
        return (f"**说法对**：{a} 和 {b} 差不多（差 {ratio:.2f} 倍，在 10% 以内）。" if zh else
                f"**The claim holds**: {a} and {b} are within 10% of each other ({ratio:.2f}×). ")
    why_zh = "训练和预填充看稠密算力，显存大小和带宽不决定训练速度" if trains else "解码看显存带宽，预填充看稠密算力"
    why_en = ("training and prefill follow dense compute; memory size and bandwidth do not set training speed" if trains
              else "decode follows memory bandwidth, prefill dense compute")
    return (f"**说法不对**：{a} 和 {b} 不一样快，差 {ratio:.2f} 倍（{why_zh}）。" if zh else
            f"**The claim is wrong**: {a} and {b} are not equally fast; they differ by {ratio:.2f}× ({why_en}). ")


def total_read_as_per_user(req) -> list[str]:
    """'2,400 tok/s total at batch 64 … my coworker says users will see 2,400 tok/s each': a total over a batch is not
    each stream's speed; each of the batch's streams sees the total over the streams (the measurement's own batch)."""
    total, each = req.throughput_tokens_per_s, req.tokens_per_s_per_user
    streams = req.measured_concurrency or req.batch
    if not (total and each and streams and streams > 1) or abs(each - total) > 0.01 * total:
        return []
    per = total / streams
    if req.lang == "zh":
        return [f"**不对**：{total:,.0f} token/秒 是 {streams} 路同时跑的合计吞吐，每个用户看到的约是 {total:,.0f} ÷ {streams} = "
                f"**{per:,.1f} token/秒**（单路解码速度）。"]
    return [f"**No**: {total:,.0f} tokens/s is the total over {streams} streams at once; each user sees about "
            f"{total:,.0f} ÷ {streams} = **{per:,.1f} tokens/s** (one stream's decode speed)."]


# 'one 4090 = 120 tok/s x 50 users = 6000 tok/s', '单路 120 token/s，50 个并发就是 6000 token/s': one stream's speed
# multiplied by the users, the product claimed as what the card gives
_TIMES_USERS = (r"(\d[\d,]*(?:\.\d+)?)\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tps|token/秒|token/s)?\s*[x×*]\s*(\d[\d,]*)\s*"
                r"(?:concurrent\s+)?(?:users?|people|ppl|streams?|sessions?|requests?|clients?|个?用户|人|个?并发|路)")
_PRODUCT = r"\s*(?:=|≈|~|equals|is|gives|就是|等于|约|大概)\s*~?\s*(\d[\d,]*(?:\.\d+)?)\s*(k)?"


def per_stream_times_users(question: str) -> tuple[float, int, float] | None:
    """(one stream's tokens/s, users, the product claimed) when a message multiplies a single-stream speed by a user
    count ('120 tok/s x 50 users = 6000 tok/s'); the product is computed when not written. None otherwise."""
    low = question.lower()
    m = re.search(_TIMES_USERS, low)
    if not m:
        m2 = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*(?:tok(?:en)?s?\s*/\s*s|t/s|tps|token\s*/\s*秒)[^。.?？]{0,30}?(\d[\d,]*)\s*"
                       r"(?:个)?(?:并发|用户|users?)\s*(?:就是|等于|=|那就是|就有|就能到)", low)
        if not m2:
            return None
        m = m2
    one, users = float(m.group(1).replace(",", "")), int(float(m.group(2).replace(",", "")))
    if not (0 < one <= 100_000 and 2 <= users <= 1_000_000):
        return None
    p = re.match(_PRODUCT, low[m.end():m.end() + 30])
    product = float(p.group(1).replace(",", "")) * (1000 if p and p.group(2) else 1) if p else one * users
    if abs(product - one * users) > 0.05 * one * users:
        return None  # ('… x 50 users = 2,000': not the product of the two)
    return one, users, product


# '成本真的就 560 万美元吗', 'is $5.6M really all it cost?': a published run's headline cost questioned
COST_CLAIM = (r"(?:成本|花费|费用|钱)[^，。？?]{0,6}(?:真的|真)(?:就|只|只要|只有)|真的(?:就|只)(?:要|花)?[^，。？?]{0,8}(?:万|美元|刀)|"
              r"(?<![a-z])(?:really (?:only|just|all)|is that (?:really )?(?:the|all the) (?:real |whole |full )?cost|"
              r"the whole cost|all it cost|the real cost|true cost)(?![a-z])|"
              # 'is ~$5.6M a realistic budget?', '560 万美元的预算靠谱吗': a run's headline cost taken as a budget
              r"(?<![a-z])(?:realistic|reasonable|plausible|enough|sufficient|credible)\s+(?:budget|number|figure|estimate)|"
              r"(?:budget|预算)[^。？?]{0,16}(?:realistic|reasonable|plausible|够不够|够吗|靠谱|现实|合理)")


def published_cost_scope(req, question: str) -> list[str]:
    """The headline cost of a published run, questioned: what its GPU-hours cover (the record's scope) and what they
    leave out, at the rate it assumed."""
    import unicodedata

    from knowledge.runs import find_run, load_training_runs

    low = unicodedata.normalize("NFKC", question).lower()
    if not re.search(COST_CLAIM, low):
        return []
    run = find_run(low) or next((r for r in load_training_runs() if r.model and r.model == req.model), None)
    if run is None or not run.gpu_hours or not run.gpu_hours_scope:
        return []
    m = re.search(r"(?:\$|＄)\s*(\d+(?:\.\d+)?)\s*(?:/|per|每)\s*(?:gpu[\s-]*)?(?:h|hr|hour|卡时)|(\d+(?:\.\d+)?)\s*(?:美元|刀)\s*/\s*卡时", low)
    rate = float(m.group(1) or m.group(2)) if m else None
    bill = f"${run.gpu_hours * rate / 1e6:,.2f}M" if rate else None
    if req.lang == "zh":
        return [f"**不是全部成本**：{run.name} 的 {run.gpu_hours:,.0f} 卡时只覆盖{run.gpu_hours_scope}"
                + (f"；按它假设的 {rate:g} 美元/卡时租价 = {bill}" if bill else "")
                + "。不含：此前的研究和消融实验、数据、人员，以及拥有这些卡的成本"
                + (f"（自购 {run.num_gpus:,} 张卡的钱远超租两个月）" if run.num_gpus else "") + "。"]
    return [f"**Not the whole cost**: {run.name}'s {run.gpu_hours:,.0f} GPU-hours cover {run.gpu_hours_scope}"
            + (f"; at the ${rate:g}/GPU-hour rental it assumed = {bill}" if bill else "")
            + ". Left out: the research and ablation runs before it, data, staff, and owning the GPUs"
            + (f" (buying {run.num_gpus:,} of them costs far more than renting them for the run)" if run.num_gpus else "")
            + "."]


# 'vLLM has PagedAttention so memory is not a problem, right?': a claim that paging shrinks the KV cache
PAGED_CLAIM = (r"(?:paged\s*attention|pagedattention|分页注意力|page\s*attention)[^。？?]{0,40}(?:显存不是问题|不占|省|不用担心|没问题|"
               r"够|doable|not a problem|no problem|fine|enough|saves?|fits?|handles? it)|"
               r"(?:doable|fine|ok|enough)[^.?]{0,20}(?:w/|with) paged\s*attention")


def paged_attention_claim(req, question: str, catalog) -> list[str]:
    """PagedAttention allocates the KV cache in blocks as sequences grow (no fragmentation, no reservation for the
    maximum length); it does not shrink the bytes each token's K and V take: the total is bytes per token x context x
    sequences, whatever the paging."""
    from tools.infer_memory import kv_cache_bytes

    if not re.search(PAGED_CLAIM, question.lower()) or not req.model:
        return []
    try:
        spec = catalog.model(req.model)[0]
    except (LookupError, ValueError):
        return []
    context = req.context or req.seq_len or 4096
    users = req.concurrent_users or req.batch or 1
    if not (req.concurrent_users or req.batch) and (req.team_size or req.daily_active_users):
        # ('1000 users' read as a user base): the busiest moment's share, as the plan below sizes it
        from tools.serve_load import peak_in_flight

        users = peak_in_flight(req.team_size, req.daily_active_users)[0]
    kv = req.kv_dtype or "bf16"
    per_seq = kv_cache_bytes(spec, kv, context) / 1e9
    total = per_seq * users
    if req.lang == "zh":
        return [f"**不对**：PagedAttention 只是把 KV cache 按块按需分配（消除碎片、不按最大长度预留），每个 token 的 K、V 字节数不变。"
                f"{spec.name} 每条 {context:,} token 的会话约 {per_seq:,.1f} GB（{kv}），{users:,} 路同时就是 **{total:,.0f} GB**，"
                "分页省不掉这部分。"]
    return [f"**No**: PagedAttention allocates the KV cache in blocks as sequences grow (no fragmentation, nothing reserved "
            f"for the maximum length); it does not shrink the bytes each token's K and V take. {spec.name} holds about "
            f"{per_seq:,.1f} GB per {context:,}-token conversation ({kv}); {users:,} at once is **{total:,.0f} GB**, paging "
            "or not."]
