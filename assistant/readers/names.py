"""Models and GPUs named in a question, with checkpoint-format suffixes and the counts written around GPU names.

Names are found before any number is read, and their characters are masked afterwards, so '8x7B' is a
model (not 8 GPUs), 'H100' is a GPU (not 100 of anything) and '910B' is a chip (not 910 billion).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.readers.numbers import CN_COUNT, EN_WORDS, to_number
from knowledge.catalog import Catalog
from tools.formats import BARE_QUANT_PATTERN, bare_quant

# Published checkpoint formats written as a suffix of a model name, and the weight precision each implies.
FORMATS: list[tuple[str, str, str]] = [  # (pattern, format name, precision)
    (r"gptq[\s_-]*int4|gptq[\s_-]*4[\s_-]*bit", "gptq-int4", "int4"),
    (r"gptq[\s_-]*int8|gptq[\s_-]*8[\s_-]*bit", "gptq-int8", "int8"),
    (r"gptq", "gptq-int4", "int4"),
    (r"awq", "awq", "int4"),
    (r"bnb[\s_-]*4[\s_-]*bit|unsloth[\s_-]*bnb[\s_-]*4bit", "bnb-4bit", "nf4"),
    (r"(?:gguf[\s_:-]*)?(?:i?q[2-8]_k(?:_[msl])?|q[48]_0|iq[1-4]_\w+)", "gguf", "int4"),
    (r"(?<=[a-z0-9][-_])fp8(?:[\s_-]*dynamic)?", "fp8", "fp8"),
    (r"fp8(?=\s*(?:版|版本|量化版|checkpoint|weights|权重|release))", "fp8", "fp8"),
    (r"mxfp4", "mxfp4", "mxfp4"),
    (r"nvfp4", "nvfp4", "nvfp4"),
    (r"(?<=[a-z0-9][-_])(?:mlx[\s_-]*)?4bit", "4bit", "int4"),
    (r"gguf", "gguf", "int4"),
    # a bare 'Q4' / 'Q8' is how people name a GGUF quant ('72B Q4 on a 4090'); 'Q4 2025' is a quarter
    (BARE_QUANT_PATTERN, "gguf", "int4"),
]
_GGUF_BITS = {"q2": "int4", "q3": "int4", "q4": "int4", "q5": "int8", "q6": "int8", "q8": "int8"}
_NAME_TAIL = r"(?:[\s_-]*(?:instruct|chat|it|base|hf))*"
_CN_COUNT = CN_COUNT


def _alias_pattern(alias: str, joiner: str = r"[\s\-_]*") -> str:
    parts = [re.escape(p) if not re.fullmatch(r"\d+gb", p) else p[:-2] + r"\s*g(?:i?b)?"  # 'A100 40G' = 'a100 40gb'
             for p in re.split(r"[\s\-_]+", alias.lower()) if p]
    return r"(?:(?<![a-z0-9])|(?<=\dx))" + joiner.join(parts) + r"s?(?![a-z0-9])"


_CARD_JOINER = r"[\s\-_(（]*"  # a card's words may be split by a bracket: 'A100 40GB (PCIe, no NVLink)'


@dataclass
class Names:
    """What the names in a question gave: ids in order of mention and where they were."""

    models: list[str] = field(default_factory=list)
    model_text: str | None = None
    checkpoint_format: str | None = None
    format_precision: str | None = None
    gpus: list[str] = field(default_factory=list)
    gpu_text: str | None = None
    gpu_spans: list[tuple[int, int, str]] = field(default_factory=list)
    unknown_gpu: str | None = None
    notes: list[str] = field(default_factory=list)
    device_ram_gb: int | None = None  # a phone or board whose memory is the device's own ('8GB RAM' is not a host's)


def mask(text: str, start: int, end: int) -> str:
    """The text with [start, end) blanked (positions kept)."""
    return text[:start] + " " * (end - start) + text[end:]


_SIZED_FIRST = re.compile(r"(?<![\d.])(\d{2,3})\s*g(?:i?b)?\s*(?:的|版的?|版本的?|显存的?)?\s*"
                          r"(h20|h100|h200|h800|a100|a800|l40s|l40|l20|(?:rtx\s*)?[2345]0[5-9]0(?:\s*(?:ti|super))*|mi300x|910b|"
                          r"v100|a6000)(?![a-z0-9])")


def _memory_after_card(low: str) -> str:
    """'换 141G 的 H20', '40GB的A100': the memory written before the card, moved after it ('h20 141g') in the same
    number of characters, so every position in the text stays where it was."""
    def moved(m: re.Match) -> str:
        text = f"{m.group(2)} {m.group(1)}g"
        return text + " " * (len(m.group(0)) - len(text)) if len(text) <= len(m.group(0)) else m.group(0)
    return _SIZED_FIRST.sub(moved, low)


def find_names(low: str, catalog: Catalog) -> tuple[Names, str]:
    """(the names found, the text with them masked)."""
    out = Names()
    low = _memory_after_card(low)
    work = low
    pooled = re.search(r"(?:当|当成|当作|作为|合成|合并成?|变成|看成|看作|拼成|凑成)\s*(?:一张|1\s*张|一块|一个)\s*\d{2,3}\s*g(?:b)?(?![a-z0-9])|"
                       r"(?<![a-z])(?:as|into|like) (?:one|a single|a) \d{2,3}\s*gb?(?![a-z0-9])(?:\s*(?:card|gpu))?", work)
    if pooled:  # ('两张 4090 能不能当一张 48G 用'): two cards' memory pooled, asked about; not a 48 GB version of the card
        work = mask(work, pooled.start(), pooled.end())
    # 1. checkpoint format suffixes: 'qwen2.5-72b-instruct-awq', 'llama-3.1-8b-instruct-q4_k_m.gguf', 'awq版'
    for pattern, name, precision in FORMATS:
        m = re.search(r"(?:(?<![a-z0-9])|(?<=[a-z0-9][-_]))(" + pattern + r")(?![a-z0-9])", work)
        if m:
            token = m.group(1)
            out.checkpoint_format = _format_name(token, name)
            out.format_precision = bare_quant(token) or (
                _GGUF_BITS.get(token.replace("gguf", "").strip("_:- ")[:2], precision) if name == "gguf" else precision)
            # (a bare 'Q2' is the quant people mean by it, Q2_K: not a 4-bit weight)
            work = mask(work, m.start(1), m.end(1))
            break
    # 2. DeepSeek-R1 distills are their base models ('DeepSeek-R1-Distill-Qwen-32B' is a Qwen2.5-32B), not R1
    m = re.search(r"deepseek[\s_-]*r1[\s_-]*distill[\s_-]*(qwen|llama)[\s_-]*(\d+(?:\.\d+)?)\s*b(?![a-z0-9])", work)
    if m:
        base = {"qwen": f"qwen2.5-{m.group(2)}b", "llama": {"8": "llama-3.1-8b", "70": "llama-3.3-70b"}.get(m.group(2), "")}
        own = f"deepseek-r1-distill-{m.group(1)}-{m.group(2)}b"  # the distill's own config, where the catalog has it
        rec = next((r for r in catalog.models if r.id == own), None) or \
            next((r for r in catalog.models if r.id == base[m.group(1)]), None)
        if rec is not None:
            out.models.append(rec.id)
            out.model_text = m.group(0).strip()
            out.notes.append(f"{m.group(0).strip()} is a distilled {base[m.group(1)] or rec.name} (same architecture), "
                             "not the 671B DeepSeek-R1")
        work = mask(work, m.start(), m.end())
    # 2b. R1 in a message about it: '满血版R1和蒸馏版32B' is DeepSeek-R1 and its Qwen-32B distill; a bare 'R1' beside
    # '满血', '蒸馏', 'distill' or 671B is DeepSeek's (an 'R1' alone may be anything, and stays unread)
    if "deepseek" not in work and re.search(r"满血|蒸馏|distill|671\s*b", work):
        for m in re.finditer(r"(?:蒸馏版?|蒸馏的|distill(?:ed)?|r1[\s_-]*distill)\s*(?:版|的)?\s*(?:qwen|llama)?[\s_-]*(1\.5|7|8|14|32|70)\s*b"
                             r"(?![a-z0-9])|(?<![a-z0-9])(1\.5|7|8|14|32|70)\s*b\s*(?:的)?\s*(?:蒸馏版?|distill(?:ed)?)", work):
            size = m.group(1) or m.group(2)
            fam = "llama" if size in ("8", "70") else "qwen"
            own = f"deepseek-r1-distill-{fam}-{size}b"
            rec = next((r for r in catalog.models if r.id == own), None) or next(
                (r for r in catalog.models if r.id == (f"qwen2.5-{size}b" if fam == "qwen" else
                                                       {"8": "llama-3.1-8b", "70": "llama-3.3-70b"}[size])), None)
            if rec is not None and rec.id not in out.models:
                out.models.append(rec.id)
                out.model_text = out.model_text or m.group(0).strip()
                out.notes.append(f"'{m.group(0).strip()}' read as DeepSeek-R1-Distill-{fam.title()}-{size}B, a distilled "
                                 f"{fam.title()} {size}B (same architecture), not the 671B R1")
            work = mask(work, m.start(), m.end())
        m = re.search(r"(?<![a-z0-9_-])r1(?![a-z0-9_])", work)
        if m:
            rec = next((r for r in catalog.models if r.id == "deepseek-v3"), None)
            if rec is not None and rec.id not in out.models:
                out.models.insert(0, rec.id)
                out.model_text = m.group(0).strip()
            work = mask(work, m.start(), m.end())
    # 3. MoE names written as experts x size: '8x7B', '8x22b', '8×7B'
    for m in re.finditer(r"(?<![a-z0-9])(\d+)\s*[x×*]\s*(\d+)\s*b(?![a-z0-9])", work):
        key = f"{m.group(1)}x{m.group(2)}b"
        rec = next((r for r in catalog.models if r.id.endswith(key)), None)
        if rec is not None:
            out.models.append(rec.id)
            out.model_text = out.model_text or m.group(0).strip()
            work = mask(work, m.start(), m.end())
    # 3. catalog names (longest first), with '-Instruct' / '-chat' tails
    for _, kind, rec in catalog.mentions(re.sub(r"\s+", " ", work)):
        if kind == "model" and rec.id not in out.models:
            out.models.append(rec.id)
        elif kind == "gpu" and rec.id not in out.gpus:
            out.gpus.append(rec.id)
    for mid in out.models:
        rec = catalog.model(mid)[0]
        for alias in sorted({rec.id, *rec.aliases, *(a.split("/")[-1] for a in rec.aliases)}, key=len, reverse=True):
            m = re.search(_alias_pattern(alias) + _NAME_TAIL, work)
            if m:
                out.model_text = out.model_text or m.group(0).strip()
                work = mask(work, m.start(), m.end())
                break
    for gid in out.gpus:
        rec = catalog.gpu(gid)[0]
        for alias in sorted({rec.id, *rec.aliases}, key=len, reverse=True):
            for m in re.finditer(_alias_pattern(alias, _CARD_JOINER), work):
                tail = re.match(r"\s*(ti|super|pro)(?![a-z0-9])", work[m.end():])
                if tail and not re.search(tail.group(1), alias):  # 'RTX 5090 Ti' is not the 5090
                    out.unknown_gpu = (m.group(0) + work[m.end():m.end() + tail.end()]).strip()
                    work = mask(work, m.start(), m.end() + tail.end())
                    continue
                out.gpu_spans.append((m.start(), m.end(), gid))
                out.gpu_text = out.gpu_text or m.group(0).strip()
                work = mask(work, m.start(), m.end())
    out.gpu_spans.sort()
    for i, (start, end, gid) in enumerate(list(out.gpu_spans)):  # 'A100 80G PCIe': the form factor written after it
        ff = re.match(r"[\s-]*(?:\d{2,3}\s*g(?:i?b)?[\s-]*)?(pcie|sxm\d?)(?![a-z])", low[end:end + 16])
        if not ff:
            continue
        rec = catalog.gpu(gid)[0]
        want = "PCIe" if ff.group(1) == "pcie" else "SXM"
        if rec.form_factor.upper().startswith(want.upper()):
            continue
        twin = [g for g in catalog.gpus if g.id.split("-")[0] == gid.split("-")[0] and g.memory_gb == rec.memory_gb
                and g.form_factor.upper().startswith(want.upper())]
        if twin:
            out.gpu_spans[i] = (start, end, twin[0].id)
            out.gpus = [twin[0].id if g == gid else g for g in out.gpus]
    for i, (start, end, gid) in enumerate(list(out.gpu_spans)):
        # 'an 8-card A100 box (the 40GB PCIe kind)': the version named a few words on, by its memory and form factor
        if re.match(r"[\s-]*(?:\d{2,3}\s*g|pcie|sxm|nvl)", low[end:end + 8]) or len({sp[2] for sp in out.gpu_spans}) > 1:
            continue
        tail = re.split(r"[?？。;；!]", low[end:end + 48])[0]
        m = re.search(r"(?:\(|（|，|,|-|the|是)\s*(?:the\s+)?(?:(\d{2,3})\s*g(?:i?b)?(?![a-z0-9])\s*)?(pcie|sxm\d?)?\s*"
                      r"(?:kind|version|variant|model|one|型号?|版本?|的|\)|）)", tail)
        if not m or not (m.group(1) or m.group(2)):
            continue
        want_mem, want_ff = int(m.group(1)) if m.group(1) else None, m.group(2)
        base_mem = catalog.gpu(gid)[0].memory_gb
        twins = [g for g in catalog.gpus if g.id in catalog.variants(gid) and
                 abs(g.memory_gb - (want_mem if want_mem is not None else base_mem)) <= 2 and
                 (not want_ff or g.form_factor.upper().startswith("PCIE" if want_ff == "pcie" else "SXM"))]
        sized = re.search(r"\d{2,3}\s*g(?:i?b)?(?![a-z0-9])", low[start:end])
        if twins and twins[0].id != gid and sized and want_mem is not None and \
                abs(catalog.gpu(gid)[0].memory_gb - want_mem) > 2:
            # 'on 2x A100 40GB or do I need the 80GB ones?': the other size is an alternative, not a correction
            if twins[0].id not in out.gpus:
                out.gpus.append(twins[0].id)
                out.gpu_spans.append((end + m.start(1), end + m.end(1), twins[0].id))
        elif twins and twins[0].id != gid:
            out.gpu_spans[i] = (start, end, twins[0].id)
            out.gpus = [twins[0].id if g == gid else g for g in out.gpus]
    pair = re.search(r"(?<![\d.])(\d{2,3})\s*g(?:i?b)?\s*(?:vs\.?|versus|or|还是|和|与|/)\s*(?:the\s+)?(\d{2,3})\s*g(?:i?b)?"
                     r"(?![a-z0-9])", low)
    if pair and len({sp[2] for sp in out.gpu_spans}) == 1:
        # 'a DGX … does the 40GB vs 80GB thing matter?': two memory sizes of the one card named, each a version of it
        gid = out.gpu_spans[0][2]
        here = catalog.gpu(gid)[0]
        for size in (int(pair.group(1)), int(pair.group(2))):
            twins = sorted((g for g in catalog.gpus if g.id in catalog.variants(gid) and abs(g.memory_gb - size) <= 2
                            and "modified" not in (g.form_factor or "").lower()),
                           key=lambda g: g.form_factor != here.form_factor)
            if twins and twins[0].id not in out.gpus:
                out.gpus.append(twins[0].id)  # (no span: the card is written once, its versions by memory alone)
    for start, end, gid in list(out.gpu_spans):  # 'A100 160G': a known name with a memory no variant of it has
        mem = re.match(r"[\s(（-]*(\d{1,3})\s*g(?:i?b)?(?![a-z0-9])", low[end:end + 12])
        if not mem or gid.startswith("custom-"):
            continue
        family = [g for g in catalog.gpus if g.id in catalog.variants(gid)]  # (its memory mods included: '4090 48G')
        base = catalog.gpu(gid)[0]
        if family and all(abs(g.memory_gb - int(mem.group(1))) > 2 for g in family) and re.search(
                r"(?<![a-z])(?:laptop|notebook|mobile|gaming laptop)(?![a-z])|笔记本|移动版|游戏本", low[max(0, start - 24):end + 16]):
            # ('my laptop 4080 (12GB)'): a laptop GPU is its own chip with its own memory: sized as a card of that memory
            spec = f"{int(mem.group(1))}GB"
            out.gpus = [spec if g == gid else g for g in out.gpus]
            out.gpu_spans = [(a, b, spec if g == gid else g) for a, b, g in out.gpu_spans]
            out.notes.append(f"a laptop {base.name.replace('NVIDIA ', '')} with {mem.group(1)} GB: laptop GPUs are their own "
                             f"chips (less memory and bandwidth than the desktop card): sized as a {mem.group(1)} GB card")
            continue
        if family and all(abs(g.memory_gb - int(mem.group(1))) > 2 for g in family) and int(mem.group(1)) > base.memory_gb \
                and re.search(r"魔改|改装|改版|改显存|(?<![a-z])(?:mod|modded|modified)(?![a-z])", low) \
                and base.memory_bandwidth_gbps and base.bf16_dense_tflops:
            # '4090 48G 魔改版': the card with more memory soldered on; its bandwidth and compute are the base card's
            spec = f"{int(mem.group(1))}GB:{base.memory_bandwidth_gbps:g}:{base.bf16_dense_tflops:g}"
            out.gpus = [spec if g == gid else g for g in out.gpus]
            out.gpu_spans = [(a, b, spec if g == gid else g) for a, b, g in out.gpu_spans]
            out.notes.append(f"{base.name} modified to {mem.group(1)} GB (a third-party memory mod, no NVIDIA warranty; "
                             f"sold in China): sized as a {mem.group(1)} GB card with the {base.name}'s "
                             f"{base.memory_bandwidth_gbps:g} GB/s and {base.bf16_dense_tflops:g} dense BF16 TFLOPS")
            continue
        if family and all(abs(g.memory_gb - int(mem.group(1))) > 2 for g in family):
            out.unknown_gpu = (low[start:end] + low[end:end + mem.end()]).strip()
            out.gpu_spans = [sp for sp in out.gpu_spans if sp[2] != gid]
            out.gpus = [g for g in out.gpus if g != gid]
            sizes = sorted({f"{g.memory_gb:g}" for g in family})
            out.notes.append(f"no {low[start:end].strip().upper()} has {mem.group(1)} GB: its versions have "
                             f"{' or '.join(sizes)} GB")
    if out.unknown_gpu:
        out.gpus = [g for g in out.gpus if any(sp[2] == g for sp in out.gpu_spans)]
        out.gpu_text = out.gpu_text if out.gpus else None
    # 4. Apple silicon (issue 15 adds its unified-memory records): asked about, never sized as a data-centre card
    m = re.search(r"(?<![a-z0-9])(macbook(?:\s*pro|\s*air)?|mac\s*(?:studio|mini|pro)|imac|m[1-5]\s*(?:max|ultra|pro)|macs?|苹果电脑)"
                  r"(?![a-z0-9])", work)
    if m and not any(g.startswith("m") and g.endswith("gb") for g in out.gpus):
        chip = _apple_chip_with_memory(work, catalog)
        if chip is None and not out.gpus:
            out.unknown_gpu = "Mac" if m.group(0).strip() in ("mac", "macs", "苹果电脑") else m.group(0).strip()
        while chip is not None:  # 'M4 Pro Mac mini 48GB', 'Mac Studio (M2 Ultra, 192G)': the chip and the memory, apart
            gid, start, end = chip  # (beside other cards: 'Mac Studio 512GB or 4x RTX 6000 Ada?' compares them;
            # 'an M2 Ultra with 192GB or an M3 Ultra with 512GB': each machine)
            if out.gpus and start < min(sp[0] for sp in out.gpu_spans):
                out.gpus.insert(0, gid)
            elif gid not in out.gpus:
                out.gpus.append(gid)
            out.gpu_text = out.gpu_text or work[start:end].strip()
            out.gpu_spans.append((start, end, gid))
            work = mask(work, start, end)
            chip = _apple_chip_with_memory(work, catalog)
    # 4b. devices that are not GPUs in the table (a Raspberry Pi, a Jetson, a phone, a CPU): said, never replaced
    if not out.gpus and not out.unknown_gpu:
        m = re.search(r"(?<![a-z0-9])(raspberry\s*pi\s*\d?|jetson(?:\s*(?:orin|nano|agx|xavier))*|iphone\s*\d*|"
                      r"(?:mid-range\s+|midrange\s+|flagship\s+)?android(?:\s+phone)?|(?:a\s+)?(?:smart)?phone|安卓(?:手机|机)?|手机|"
                      r"snapdragon\s*\w*|(?:intel\s*)?(?:core\s*)?i[3579]-?\d{4,5}\w*|xeon\s*\w*|ryzen\s*\d*\s*\w*|"
                      r"cpu[\s-]*only|only (?:a|the) cpu|树莓派|纯\s*cpu|只有\s*cpu)(?![a-z0-9])", work)
        if m:
            out.unknown_gpu = m.group(0).strip()
            mem = re.search(r"(\d{1,3})\s*g(?:b|ib)?(?![a-z])\s*(?:of\s+)?(?:ram|memory|内存|统一内存|运存|unified)?",
                            work[m.end():m.end() + 40]) \
                or re.search(r"(\d{1,3})\s*g(?:b|ib)?\s*(?:of\s+)?(?:ram|memory|内存|运存)", work)
            from knowledge.catalog import phone_gpu_id

            phone = phone_gpu_id(work, int(mem.group(1))) if mem else None  # (the phone table's names decide)
            if phone:  # '12GB 内存的安卓机（骁龙 8 Gen 3）': the app's share of its memory, the chip's bandwidth
                gid, rec, said = phone
                ram = out.device_ram_gb = int(mem.group(1))
                out.gpus, out.gpu_text = [gid], m.group(0).strip()
                out.gpu_spans.append((m.start(), m.end(), gid))
                # the phone the user named ('Pixel 8 Pro'), not the word 'phone' the device was found by
                label = m.group(0).strip() if said in m.group(0).lower() else said.title() if said.isascii() else said
                out.notes.append(f"'{label}' read as {rec.name}: one app can hold about "
                                 f"{rec.app_memory_share:.0%} of its {ram} GB (Android keeps the rest for the system and other "
                                 f"apps; an assumption), so {ram * rec.app_memory_share:g} GB; memory {rec.memory_type}, "
                                 f"{rec.memory_bandwidth_gbps:g} GB/s ({rec.source_kind} source, {rec.as_of})")
                out.unknown_gpu = None
                work = mask(work, m.start(), m.end())
                mem = None
            if mem and 1 <= int(mem.group(1)) <= 512:  # 'Raspberry Pi 5 with 8GB RAM', 'iPhone 15 Pro（8GB 内存）'
                gid = f"custom-{int(mem.group(1))}gb"
                out.gpus, out.gpu_text = [gid], m.group(0).strip()
                out.gpu_spans.append((m.start(), m.end(), gid))
                out.notes.append(f"'{m.group(0).strip()}' is not a GPU: sized on its {int(mem.group(1))} GB of memory as if all "
                                 "of it held the model (an upper bound; the OS needs some, and its speed is far below a GPU's)")
                out.unknown_gpu = None
                work = mask(work, m.start(), m.end())
    # 5. GPU-like names the table lacks: never replaced by another card
    for m in re.finditer(r"(?<![a-z0-9])((?:rtx|gtx|tesla|quadro|radeon|rx|arc|nvidia|geforce)\s*)?"
                         r"([a-z]{1,2}\d{2,4}[a-z]?|[a-z]{1,2}\d[\do]{1,3}|\d{4}(?:\s*ti|\s*super)?)(?![a-z0-9])", work):
        token = m.group(2)
        if re.fullmatch(r"\d+[bkmtgw]|fp\d+|bf16|int\d|nf4|q\d|gb\d*|v\d|r\d+|k\d+|x\d+|a\d+b", token):  # a17b: active params
            continue
        if re.fullmatch(r"p(?:50|75|90|95|99|999)", token) and not m.group(1):
            continue  # 'p50 prompt ~2k', 'p99 latency': a percentile, not a card
        if token.isdigit() and not m.group(1):
            continue  # a plain number; only 'RTX 9090'-like forms name a card
        called_a_card = re.match(r"\s*(?:gpus?|cards?|accelerators?|显卡|加速卡)", work[m.end():]) is not None
        if re.fullmatch(r"[a-z]{1,2}\d[\do]{1,3}[a-z]?", token) and not m.group(1) and not _gpu_like(token) \
                and not called_a_card:  # 'a Z9000 GPU' names a card, whatever its letters
            continue
        if any(token in a.lower() for r in catalog.models for a in (r.id, *r.aliases)):
            continue
        if any(g.split("-")[0] == token for g in out.gpus):
            continue  # 'a100 40g': the card is named already (its '40g' variant); not a second A100
        try:  # a known card the name search missed ('a100-hours'): take it
            rec = catalog.gpu(token)[0]
            if rec.id not in out.gpus:
                out.gpus.append(rec.id)
                out.gpu_spans.append((m.start(2), m.end(2), rec.id))
                out.gpu_text = out.gpu_text or token
            continue
        except LookupError:
            pass
        digits = token[:re.search(r"\d", token).start()] + re.sub("o", "0", token[re.search(r"\d", token).start():]) \
            if re.search(r"\d", token) else token
        if digits != token:  # 'H1OO', 'A1OO': a letter O typed for a zero; the card is plain, and said
            try:
                rec = catalog.gpu(digits)[0]
                try:  # 'H2O': H20, or H200 with a zero dropped? two cards a typo away: asked, not guessed
                    other = catalog.gpu(digits + "0")[0]
                except LookupError:
                    other = None
                mem = re.match(r"\s*(\d{2,3})\s*(?:gb?|g)(?![a-z0-9])", work[m.end():m.end() + 10])
                if other is not None and mem and [g.memory_gb for g in (rec, other)].count(float(mem.group(1))) == 1:
                    # 'H2O 96G': the memory written beside it names one of the two
                    rec = rec if rec.memory_gb == float(mem.group(1)) else other
                    other = None
                if other is not None and not mem:
                    said = {float(x) for x in re.findall(r"(?<![\d.])(\d{2,3})\s*(?:gb?|g)(?![a-z0-9])", work)}
                    hit = [g for g in (rec, other) if g.memory_gb in said]
                    if len(hit) == 1:  # ('想买 H2O 跑 Qwen3-32B，单卡 96G 够吗'): the memory said elsewhere names one
                        rec, other = hit[0], None
                if other is not None and other.id != rec.id and token.endswith("o"):
                    out.unknown_gpu = out.unknown_gpu or m.group(0).strip()
                    out.notes.append(f"'{m.group(0).strip().upper()}' could be {rec.name} or {other.name}")
                    break
                if rec.id not in out.gpus:
                    out.gpus.append(rec.id)
                    out.gpu_spans.append((m.start(2), m.end(2), rec.id))
                    out.gpu_text = out.gpu_text or digits
                out.notes.append(f"'{m.group(0).strip().upper()}' read as {rec.name} (the letter O typed for a zero)")
                continue
            except LookupError:
                pass
        out.unknown_gpu = out.unknown_gpu or m.group(0).strip()
        break
    # 6. a card the table lacks, written with its memory ('my 3060 12GB', 'RX 7900 XTX 24G'): sized as a card of
    # that memory, and said so (speed estimates then ask for its bandwidth). A data-centre-style name the table
    # lacks ('V200 32G', 'H300') is more likely a typo: that one is asked about instead.
    dc_style = bool(out.unknown_gpu and re.fullmatch(r"(?:nvidia\s*)?[a-z]{1,2}\d{2,3}[a-z]?", out.unknown_gpu.strip()))
    if dc_style:  # 'the NVIDIA H300 (288GB)': asked about, with the memory written beside it kept for the check
        beside = re.search("(" + re.escape(out.unknown_gpu) + r")\s*(?:\(|,|with)?\s*(\d{2,4})\s*g(?:b|ib)?(?![a-z0-9])", low)
        if beside and 8 <= int(beside.group(2)) <= 4096:
            out.unknown_gpu = f"{out.unknown_gpu.strip()} {int(beside.group(2))}gb"
    if not out.gpus and not dc_style and (not out.unknown_gpu or
                                          re.match(r"(?:rtx|gtx|rx|radeon|arc|geforce|nvidia)\b", out.unknown_gpu)):
        m = re.search(r"(?<![a-z0-9])((?:rtx|gtx|rx|radeon|arc|quadro|tesla)?\s*[a-z]{0,2}\d{3,4}(?:\s*(?:ti|super|xtx|xt))?)"
                      r"\s*(?:\(|,|with)?\s*(\d{1,3})\s*g(?:b|ib)?(?![a-z0-9])", work)
        if out.unknown_gpu:  # the unknown name itself with its memory first (it may be masked in `work` by a known
            # name inside it: 'rtx 4080 ti 48gb')
            m = re.search("(" + re.escape(out.unknown_gpu) + r")\s*(?:\(|,|with)?\s*(\d{1,3})\s*g(?:b|ib)?(?![a-z0-9])",
                          low) or m
        if m and not re.fullmatch(r"\s*\d{1,2}", m.group(1)) and 2 <= int(m.group(2)) <= 512:
            gid = f"custom-{int(m.group(2))}gb"
            out.gpus = [gid]
            out.gpu_text = m.group(0).strip()
            out.gpu_spans.append((m.start(), m.end(), gid))
            same = [g.name for g in catalog.gpus if g.memory_gb and abs(g.memory_gb - int(m.group(2))) <= 1
                    and g.vendor != "Apple"][:3]
            out.notes.append(f"'{m.group(1).strip()}' is no card in the GPU table (no such product on record): sized as a "
                             f"{int(m.group(2))} GB card from the memory written beside it"
                             + (f"; the real cards with that memory: {', '.join(same)}" if same else ""))
            out.unknown_gpu = None
            work = mask(work, m.start(), m.end())
    # 7. a vendor's sheet pasted for a card the table lacks ('XG-9000 AI Accelerator | 64GB HBM2e | 1.6 TB/s | 400
    # TFLOPS FP16 dense'): a card of that memory, bandwidth and compute, the vendor's figures said as such
    sheet = re.search(r"(?:^|\n)\s*([a-z][\w.-]{1,24}(?:\s+[a-z][\w.-]*){0,3})\s*[|,;:]\s*(\d{1,3})\s*gb\b[^|\n]*?[|,;]\s*"
                      r"(\d+(?:\.\d+)?)\s*(tb/s|gb/s)[^|\n]*?(?:\s*[|,;]\s*(\d+(?:\.\d+)?)\s*tflops)?", low)
    if sheet and not any(sheet.start(1) <= a < sheet.end(1) for a, _, g in out.gpu_spans if not g.startswith("custom-")):
        mem = int(sheet.group(2))
        bw = float(sheet.group(3)) * (1000 if sheet.group(4) == "tb/s" else 1)
        tf = float(sheet.group(5)) if sheet.group(5) else None
        if 1 <= mem <= 1024 and 10 <= bw <= 100_000:
            gid = f"{mem}GB:{bw:g}" + (f":{tf:g}" if tf else "")
            name = sheet.group(1).strip()
            out.gpus = [gid] + [g for g in out.gpus if not g.startswith("custom-")]
            out.gpu_spans = [sp for sp in out.gpu_spans if not sp[2].startswith("custom-")] + \
                [(sheet.start(1), sheet.end(1), gid)]
            out.gpu_spans.sort()
            out.gpu_text = out.gpu_text or name
            out.notes.append(f"'{name}' read from the sheet you pasted: {mem} GB, {bw:,.0f} GB/s"
                             + (f", {tf:g} dense 16-bit TFLOPS" if tf else "") + " (the vendor's figures, not checked; "
                             "sized as a card with exactly these)")
            out.unknown_gpu = None
            work = mask(work, sheet.start(1), sheet.end())
    return out, work


def _apple_chip_with_memory(work: str, catalog: Catalog) -> tuple[str, int, int] | None:
    """(GPU id, start, end) for an Apple chip and a memory size written within a few words of each other, in either
    order: 'm4 pro mac mini 48gb', '128g 的 m3 max'. The chip's first variant sold with that memory."""
    chip = re.search(r"(?<![a-z0-9])m([1-5])\s*(max|ultra|pro)?(?![a-z0-9])", work)
    if not chip:
        return _apple_product_with_memory(work, catalog)
    stem = f"m{chip.group(1)}" + (f"-{chip.group(2)}" if chip.group(2) else "")
    for mem in re.finditer(r"(?<![\d.])(\d{1,3})\s*(?:g|gb|gib)(?![a-z0-9])", work):
        if abs(mem.start() - chip.start()) > 40:
            continue
        size = int(mem.group(1))
        ids = [g.id for g in catalog.gpus if g.vendor == "Apple" and re.fullmatch(rf"{stem}(?:-\d+c)?-{size}gb", g.id)]
        if ids:
            best = next((i for i in ids if not re.search(r"-\d+c-", i)), ids[0])
            return best, min(chip.start(), mem.start()), max(chip.end(), mem.end())
    return None


# The chips each Mac was sold with, newest first: a product and a memory size name one ('Mac Studio 512GB' is an M3
# Ultra: no other Mac Studio came with 512 GB).
_MAC_CHIPS = {"studio": ("m3-ultra", "m4-max", "m2-ultra", "m2-max", "m1-ultra", "m1-max"),
              "mini": ("m4-pro", "m4", "m2-pro", "m2", "m1"),
              "macbook pro": ("m4-max", "m4-pro", "m4", "m3-max", "m3-pro", "m3", "m2-max", "m2-pro", "m1-max", "m1-pro"),
              "macbook air": ("m4", "m3", "m2", "m1"), "imac": ("m4", "m3", "m1"), "mac pro": ("m2-ultra",)}


def _apple_product_with_memory(work: str, catalog: Catalog) -> tuple[str, int, int] | None:
    """'Mac Studio 512GB', 'a Mac mini with 64GB': the newest chip that Mac was sold with in that memory size."""
    prod = re.search(r"(?<![a-z0-9])(mac\s*studio|mac\s*mini|macbook\s*pro|macbook\s*air|imac|mac\s*pro)(?![a-z0-9])", work)
    if not prod:
        return None
    key = re.sub(r"\s+", " ", prod.group(1)).replace("mac studio", "studio").replace("mac mini", "mini")
    for mem in re.finditer(r"(?<![\d.])(\d{1,3})\s*(?:g|gb|gib)(?![a-z0-9])", work):
        if abs(mem.start() - prod.start()) > 40:
            continue
        size = int(mem.group(1))
        for stem in _MAC_CHIPS.get(key, ()):
            ids = [g.id for g in catalog.gpus if g.vendor == "Apple" and re.fullmatch(rf"{stem}(?:-\d+c)?-{size}gb", g.id)]
            if ids:
                best = next((i for i in ids if not re.search(r"-\d+c-", i)), ids[0])
                return best, min(prod.start(), mem.start()), max(prod.end(), mem.end())
    return None


def _gpu_like(token: str) -> bool:
    """'a1000x', 'h300', 'b500' look like accelerator names; 'gpt4', 'v3', 'r1', 'q4' do not."""
    return bool(re.fullmatch(r"(?:a|h|b|l|v|t|p|k|m|mi|gb)\d[\do]{1,3}[a-z]?", token)) and not token.startswith("gpt")


def _format_name(token: str, name: str) -> str:
    if name != "gguf":
        return name
    q = re.search(r"i?q[2-8]_\w+", token)
    bare = bare_quant(token)
    if bare:  # 'Q4': the quant people mean by it (Q4_K_M; Q2_K, Q8_0)
        return "gguf-" + bare
    return f"gguf-{q.group(0)}" if q else "gguf"


# words between a count and its card that leave the count the card's: 'one rented L40S', '2 spare used H100s'
_CONDITION = (r"(?:new|used|refurb\w*|second[\s-]*hand|rented|leased|spare|cloud|local|reserved|dedicated|idle|old|"
              r"existing|borrowed|on-?prem|bare[\s-]?metal|single|donated|owned)")


def count_spans_near_gpus(text: str, names: Names) -> tuple[int | None, int | None, int | None, tuple[int, int] | None]:
    """(total GPUs, GPUs per node, nodes) written around the GPU names: '8x A100', 'A100 x 8', '两张4090',
    '2 servers x 8 H100', '两台8卡A100', 'H100s (16)', 'dual 4090', 'my 4090'; and where the count is written
    (start, end in text), so the reader can take it out of its working text."""
    for start, end, _ in names.gpu_spans:
        b0 = max(0, start - 40)
        b0 = max(b0, text.rfind("\n", 0, start) + 1)  # a count never crosses a line ('…115 万\nL20 8卡机': a price above)
        before, after = text[b0:start], text[end:end + 16]
        if re.match(r"s?[\s-]*(?:gpu)?[\s-]*(?:卡时|卡·时|小时|hours?|hrs?)(?![a-z])", after):
            continue  # ('200 H100-GPU-hours a month', '500 A100 卡时'): hours of a card, not a count of cards
        before = re.sub(r"(?:华为|huawei|昇腾|升腾|ascend|amd|instinct|英伟达)\s*$", "", before)  # ('两台 8卡 昇腾 910B')
        m = re.search(r"(\d+)\s*(?:台|个节点|nodes?|servers?|machines?|boxes|hosts?)\s*(?:[x×*,，、]|of|with|each with|"
                      r"每台|每个)?\s*(\d+)\s*(?:[x×*]|张|块|卡|gpus?|cards?)?\s*(?:nvidia\s*)?$", before)
        if m:
            nodes, per = int(m.group(1)), int(m.group(2))
            return nodes * per, per, nodes, (b0 + m.start(), start)
        m = re.search(rf"({_CN_COUNT}|\d+)\s*(?:台|个节点)\s*(\d+|{_CN_COUNT})\s*(?:卡|张|块)\s*$", before)
        if m:
            nodes, per = int(to_number(m.group(1))), int(to_number(m.group(2)))
            return nodes * per, per, nodes, (b0 + m.start(), start)
        m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(million|thousand|k|万|千)\s*(?:张|块|个)?\s*(?:nvidia\s*)?$", before)
        if m and re.match(r"\s*(?:gpu)?[\s-]*(?:卡时|小时|hours?|hrs?|days?|天|卡·时)", after):
            m = None  # '278.8万H800卡时', '30.84M H100 hours': GPU-hours, not GPUs
        if m:  # '10 million H100s', '1万张H800': read as written (the planner says when it is out of range)
            return (int(float(m.group(1)) * {"million": 1e6, "thousand": 1e3, "k": 1e3, "万": 1e4, "千": 1e3}[m.group(2)]),
                    None, None, (b0 + m.start(), start))
        m = re.search(r"(?<![a-z\d.])(\d+|one|two|three|four|five|six|eight|a pair of|a couple of)\s+(\d+)\s*(?:[x×*]|-?gpu|-?card)\s*"
                      r"(?:nvidia\s*)?$", before)
        if m and re.match(r"\s*(?:sxm\d?|pcie|\d+\s*gb?)?\s*(?:nodes?|servers?|boxe?s?|machines?|hosts?)(?![a-z])", after):
            # 'two 8x H100 nodes': nodes x GPUs per node
            nodes = int(m.group(1)) if m.group(1).isdigit() else EN_WORDS.get(m.group(1).replace("a pair of", "pair of"), 2)
            per = int(m.group(2))
            return nodes * per, per, nodes, (b0 + m.start(), start)
        m = re.search(r"(?<![\d.])(\d+)\s*[x×*]\s*(\d+)\s*[x×*]?\s*(?:nvidia\s*)?$", before)
        if m:  # '2x8 H100': nodes x GPUs per node
            nodes, per = int(m.group(1)), int(m.group(2))
            return nodes * per, per, nodes, (b0 + m.start(), start)
        m = re.search(r"(?<![\d.])(\d+)\s*(?:[x×*]|张|块|卡|个|pcs|片)?\s*(?:(?:二手|全新|新的?|旧的?|魔改|" + _CONDITION +
                      r")\s*(?:的)?\s*){0,2}(?:nvidia\s*|geforce\s*|rtx\s*)?$", before)
        # ('2 张二手 3090', '2x used 3090s': the condition between the count and the card)
        if m and 0 <= int(m.group(1)) <= 100_000:
            return int(m.group(1)), None, None, (b0 + m.start(), start)
        m = re.search(rf"({_CN_COUNT})\s*(?:张|块|卡|个|片)?\s*(?:(?:二手|全新|新的?|旧的?|魔改)\s*(?:的)?\s*)?(?:nvidia\s*)?$", before)
        if m and to_number(m.group(1)):
            return int(to_number(m.group(1))), None, None, (b0 + m.start(), start)
        m = re.search(r"(?<![a-z])(a|an|one|single|dual|two|three|four|quad|six|eight|sixteen|thirty-two|sixty-four|"
                      r"a couple of|a pair of|my|our)\s+(?:" + _CONDITION + r"\s+){0,2}(?:\d+\s*gb?\s+)?"
                      r"(?:nvidia\s*|geforce\s*|rtx\s*)?$", before)
        if m and not (m.group(1) in ("my", "our") and (re.match(r"s(?![a-z])", after) or
                                                        re.search(r"\ds$", text[start:end]) or
                                                        re.search(r"\ds$", names.gpu_text or ""))):
            # ('our RTX 3090s': several, their number unsaid; 'my 4090': one)
            word = m.group(1).replace("a pair of", "pair of")
            return (1 if word in ("my", "our") else EN_WORDS.get(word, 1)), None, None, (b0 + m.start(), start)
        m = re.match(r"\s*(?:gpus?|cards?)?\s*(?:[x×*]\s*(\d+)(?![\d.]*\s*b)|\(\s*(\d+)\s*\)|(\d+)\s*(?:张|块|卡|片))", after)
        if m:
            return int(next(g for g in m.groups() if g)), None, None, (end, end + m.end())
    return None, None, None, None


def counts_near_gpus(text: str, names: Names) -> tuple[int | None, int | None, int | None]:
    """(total GPUs, GPUs per node, nodes) written around the GPU names (see count_spans_near_gpus)."""
    return count_spans_near_gpus(text, names)[:3]
