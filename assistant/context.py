"""The shared context of one answer being planned: the planner's dependencies (Deps), the answer under
construction (Ctx), the Request fields each intent's tools consume (USES), and the assumption and source
sections every plan writes. It sits below the planner and the plan modules (assistant/plans/), which both import
it; nothing here imports them."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.answer import Citation, ToolCall
from assistant.compose import T, fx_note, money
from assistant.request import Clarification, Request
from assistant.zh import in_lang
from knowledge.catalog import Catalog

# A fit above this share of a card's usable memory is said to be tight (an assumption a practitioner would state: a
# longer sequence, a bigger batch or allocator fragmentation pushes it over); the counts planned on keep under it.
TIGHT_SHARE = 0.9


class Deps:
    """What the planner needs, built once: the catalog and (lazily) the retrieval index."""

    def __init__(self, catalog: Catalog, index=None, prices=None):
        self.catalog = catalog
        self._index = index
        self._prices = prices

    def prices(self) -> list:
        """The price records answers use: this Deps' own (a session's overrides applied), else the shipped
        table with the user's price file on top."""
        if self._prices is not None:
            return self._prices
        from knowledge.prices import load_prices

        return load_prices().records

    def with_prices(self, overrides: list) -> Deps:
        """The same catalog and index with these Price records replacing the same GPU's records of the same kind."""
        group = lambda kind: "buy" if kind.startswith("buy") else kind  # (a stated purchase price, new or used, is the price)
        replaced = {(p.gpu, group(p.kind)) for p in overrides}
        kept = [p for p in self.prices() if (p.gpu, group(p.kind)) not in replaced]
        clone = Deps(self.catalog, prices=kept + list(overrides))
        clone.index = self.index  # one retrieval index per process, however many sessions
        return clone

    def index(self, load: bool = True):
        """The retrieval index, built on first use; with load=False, None until then."""
        if self._index is None and load:
            from knowledge.index import KnowledgeIndex

            self._index = KnowledgeIndex(catalog=self.catalog)
        return self._index

    def search(self, query: str, k: int = 3) -> list[Citation]:
        """Citations from BM25 + named-entity retrieval (no embedding model: answers stay fast)."""
        try:
            res = self.index().search(query, k=k * 3, mode="bm25")
        except Exception as e:  # the answer stands without citations; say why
            return [Citation(source="(none)", title="retrieval unavailable", snippet=str(e)[:200])]
        other = ".en.md" if re.search(r"[\u3400-\u9fff]", query) else ".zh.md"  # (a note in the answer's own language)
        passages = [p for p in res.passages if not p.source.endswith(other)] or list(res.passages)
        return [Citation(source=p.source, title=p.title + (f" / {p.section}" if p.section else ""),
                         snippet=WITHHELD if p.flagged_instructions else p.text[:240].replace("\n", " "), as_of=p.as_of,
                         trust="user" if p.untrusted else "project", flagged=p.flagged_instructions)
                for p in passages[:k]]


@dataclass
class Ctx:
    """One answer being built: the request, the tools called, the defaults assumed, the notes."""

    req: Request
    deps: Deps
    question: str
    calls: list[ToolCall] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    applied: dict = field(default_factory=dict)  # defaults shown in the restatement as if stated ('1× H100')
    gpu_overrides: dict = field(default_factory=dict)  # GPU records changed for this answer (a Mac's raised GPU limit)
    shared: frozenset = frozenset()  # inputs the message's comparison uses: not 'not used' in one ask's section
    one_of_several: bool = False  # one ask of a message that holds several (the comparison picks the formats)
    clarify: Clarification | None = None  # a question back an answered handler adds (the input its verdict hinges on)
    used: set = field(default_factory=set)  # inputs a handler used beyond its intent's usual ones (USES)
    as_stated: dict = field(default_factory=dict)  # inputs computed at another value, reported as the user stated them

    @property
    def lang(self) -> str:
        return self.req.lang

    @property
    def zh(self) -> bool:
        return self.req.lang == "zh"

    def money(self, usd: float, digits: int = 0) -> str:
        """compose.money in the answer's language; in Chinese the exchange rate joins the assumptions (once)."""
        if self.zh:
            note = fx_note("zh")
            if note not in self.notes:
                self.notes.append(note)
        return money(self.lang, usd, digits)

    def call(self, name: str, args: dict, result) -> Any:
        """Record a tool call (arguments and result) and return the result."""
        dump = result.model_dump(mode="json", exclude={"terms"}) if hasattr(result, "model_dump") else result
        self.calls.append(ToolCall(name=name, args=args, result=dump))
        return result

    def model(self):
        rec, note = self.deps.catalog.model(self.req.model_path or self.req.model)
        if note:
            self.notes.append(note)
            named = self.req.model_text or ""
            if re.match(r"[a-z]", named.lower()) and named.lower() != self.req.model:  # 'gpt-oss-20b', not in the catalog
                self.assume(f"{named} sized as a generic {self.req.model.upper()} dense decoder (not in the catalog)",
                            f"{named} 按通用 {self.req.model.upper()} 稠密模型估算（不在模型表中）")
        return rec

    def gpu(self, gpu_id: str | None = None, default: str | None = None):
        """The GPU record for `gpu_id` (or the request's); `default` is used, and said, when none was named."""
        gid = gpu_id or self.req.gpu
        if gid is None:
            if default is None:
                raise ValueError("no GPU named")
            gid = default
            fmt = self.req.precision
            if fmt and gid in FORMAT_DEFAULTS_FOR and not self.req.exclude_vendors and not self.req.only_vendors:
                from tools.formats import supported_on

                if not supported_on(fmt, self.deps.catalog.gpu(gid)[0])[0]:
                    # 'serve 405B in FP8', no card named: a card that computes in FP8 (H100; FP4: B200), not an A100
                    # that would run it weight-only
                    gid = next((g for g in FORMAT_DEFAULTS_FOR[gid]
                                if supported_on(fmt, self.deps.catalog.gpu(g)[0])[0]), gid)
            for_format = gid != default
            bigger = None if self.req.exclude_vendors or self.req.only_vendors else self._card_that_holds(gid)
            if bigger:  # 'DeepSeek-V3: API or self-host?', no card named: a node of cards that holds it, not one that cannot
                gid, for_format = bigger, False
            if self.req.exclude_vendors or self.req.only_vendors:  # 'no NVIDIA': the default from a vendor allowed
                self.used |= {"exclude_vendors", "only_vendors"}
                if not vendor_ok(self.req, self.deps.catalog.gpu(gid)[0]):
                    gid = next((g for g in _ALLOWED_DEFAULTS if vendor_ok(self.req, self.deps.catalog.gpu(g)[0])), gid)
            if for_format and gid != default and fmt:  # (the default card swapped for one that computes in the format asked: said why)
                self.assume(f"{_short(self, gid)} (no card named; the usual {_short(self, default)} default has no "
                            f"{fmt.upper()} tensor cores, so a card that computes in {fmt.upper()})",
                            f"{_short(self, gid)}（未指定 GPU；默认的 {_short(self, default)} 没有 {fmt.upper()} 张量核心，"
                            f"所以按能原生算 {fmt.upper()} 的卡）")
            else:
                self.assume(f"{_short(self, gid)}", f"{_short(self, gid)}（未指定 GPU）")
        rec, note = self.deps.catalog.gpu(gid)
        if note:
            self.notes.append(note)
        if gpu_id is None and self.req.gpu and (self.req.exclude_vendors or self.req.only_vendors):
            # '只能买华为的卡 … 买几张 910B': a rule the named card meets is kept, not 'not used'; one it breaks is said
            self.used |= {"exclude_vendors", "only_vendors"}
            if not vendor_ok(self.req, rec):
                rule = ", ".join(self.req.only_vendors) or "not " + ", ".join(self.req.exclude_vendors)
                line = self.t(f"{rec.name} is made by {rec.vendor}, outside the vendors you allow ({rule}): sized as "
                              "asked, but it breaks your rule", f"{rec.name} 是 {rec.vendor} 的卡，不在你允许的厂商范围内（"
                              f"{rule}）：按你问的计算，但它不符合你的要求")
                if line not in self.notes:
                    self.notes.append(line)
        if rec.vendor == "custom" and rec.memory_bandwidth_gbps is None and rec.id not in self.gpu_overrides:
            typical = self._typical_card_of_size(rec)
            if typical is not rec and note in self.notes:
                self.notes.remove(note)  # ('no bandwidth given': one is now assumed, and said)
            rec = typical
        return self.gpu_overrides.get(rec.id, rec)

    def _typical_card_of_size(self, rec):
        """'a 24GB card' names its memory only; where speed needs a bandwidth and a compute figure, those of the middle
        card (by bandwidth) among the catalog's NVIDIA cards of that size (24 GB: RTX 4090), with the range said. The
        record keeps its own id and memory; one with no catalog card of its size is returned as it is."""
        m = re.fullmatch(r"custom-(\d+(?:\.\d+)?)(gb|gib)", rec.id)
        size = float(m.group(1)) if m else None
        peers = sorted((g for g in self.deps.catalog.gpus if size and g.vendor == "NVIDIA" and g.memory_gb == size
                        and g.memory_bandwidth_gbps and g.bf16_dense_tflops), key=lambda g: g.memory_bandwidth_gbps)
        if not peers:
            return rec
        mid = peers[len(peers) // 2]
        lo, hi = peers[0], peers[-1]
        spread = ctx_range = ""
        if lo.memory_bandwidth_gbps != hi.memory_bandwidth_gbps:
            ctx_range = (f"; {size:g} GB cards read {lo.memory_bandwidth_gbps:,.0f}-{hi.memory_bandwidth_gbps:,.0f} GB/s "
                         f"({lo.name} to {hi.name}) and decode speed scales with it: name yours to replace it")
            spread = (f"；{size:g} GB 的卡带宽在 {lo.memory_bandwidth_gbps:,.0f}-{hi.memory_bandwidth_gbps:,.0f} GB/s 之间"
                      f"（{lo.name} 到 {hi.name}），解码速度与之成正比：给出具体型号可替换")
        self.assume(f"speed as a {mid.name} ({mid.memory_bandwidth_gbps:,.0f} GB/s, {mid.bf16_dense_tflops:g} dense BF16 "
                    f"TFLOPS), the middle {size:g} GB card{ctx_range}",
                    f"速度按 {mid.name} 估算（{mid.memory_bandwidth_gbps:,.0f} GB/s、稠密 BF16 {mid.bf16_dense_tflops:g} "
                    f"TFLOPS，{size:g} GB 卡里居中的一款）{spread}")
        keep = {k: getattr(mid, k) for k in ("memory_bandwidth_gbps", "bf16_dense_tflops", "fp16_dense_tflops", "fp32_tflops",
                                             "fp8_dense_tflops", "int8_dense_tops", "fp4_dense_tflops", "tdp_w",
                                             "supports_bf16")}
        return rec.model_copy(update=keep)

    def _card_that_holds(self, gid: str) -> str | None:
        """A larger default when the request's model in its format does not fit one 8-GPU node of `gid` with room
        for the KV cache (DeepSeek-V3's 673 GB of FP8 over 8 × 80 GB): H200 (141 GB), then B200 (180 GB); None when
        the default does, or no model is named."""
        if not self.req.model or self.req.intent.startswith("training") or \
                self.req.method in ("full", "lora", "qlora", "pretrain"):
            return None  # (a training job spans servers as a matter of course: its card stays the usual default)
        try:
            from tools.format_weights import FormatWeightsRequest, weights_by_format

            model = self.model()
            fmt = self.req.precision or model.native_precision
            need = weights_by_format(FormatWeightsRequest(model=model, formats=[fmt])).rows[0].weights_gb
        except (LookupError, ValueError):
            return None
        room = lambda g: 8 * self.deps.catalog.gpu(g)[0].memory_gb * 0.9 * 0.8  # (0.9 engine share, a fifth for KV)
        if need <= room(gid):
            return None
        return next((g for g in ("h200", "b200") if need <= room(g)), None)

    def assume(self, en: str, zh: str) -> None:
        """A default the answer rests on: shown in the first line, in the user's language."""
        text = zh if self.zh else en
        if text not in self.assumed:
            self.assumed.append(text)

    def note(self, text: str) -> None:
        """An assumption for the answer's list, once however many steps make it."""
        if text not in self.notes:
            self.notes.append(text)

    def job(self, default_gpu: str):
        """(model, GPU, GPU count) of the request, with the defaults it lacks stated."""
        model, gpu = self.model(), self.gpu(default=default_gpu)
        if not self.req.num_gpus:
            self.assume_one_gpu()
        return model, gpu, self.req.num_gpus or 1

    def assume_one_gpu(self) -> None:
        self.assume("1 GPU", "单卡")
        self.applied["num_gpus"] = 1

    def ignore(self, field_name: str, why_en: str, why_zh: str) -> None:
        """A stated input the answering tool cannot use, named with the reason."""
        value = getattr(self.req, field_name)
        line = f"{field_name}={value}: " + (why_zh if self.zh else why_en)
        if line not in self.ignored:  # (a check run for several sizings names the input once)
            self.ignored.append(line)

    def t(self, en: str, zh: str) -> str:
        return zh if self.zh else en


_ALLOWED_DEFAULTS = ("a100-80gb", "mi300x", "ascend-910b")  # the default card, and its stand-ins by vendor
# the default card's stand-ins when the format asked needs tensor cores it lacks (FP8: Hopper; FP4: Blackwell)
FORMAT_DEFAULTS_FOR = {"a100-80gb": ("h100-sxm", "b200")}


def vendor_ok(req, gpu) -> bool:
    """Whether a card's vendor is one the user allows ('no NVIDIA', '国产化'); Macs are never ruled in by '国产化'."""
    if req.only_vendors and gpu.vendor not in req.only_vendors:
        return False
    if gpu.id in (getattr(req, "exclude_gpus", None) or []):
        return False  # a card ruled out by name ('H100/H800 这些买不到')
    return gpu.vendor not in req.exclude_vendors


def _card_names(ctx, ids: list[str]) -> list[str]:
    """'H100' once for the H100 SXM5, PCIe and NVL a bare 'no H100' rules out; a single variant by its own name."""
    from knowledge.catalog import model_name

    cards = {g.id: g for g in ctx.deps.catalog.gpus}
    names = [model_name(cards[i].name) if i in cards else i for i in ids]
    out = []
    for i, n in zip(ids, names):
        label = n if names.count(n) > 1 or len(ctx.deps.catalog.variants(i)) == 1 else (cards[i].name if i in cards else i)
        if label not in out:
            out.append(label)
    return out


def allowed_cards(ctx, cards: list) -> list:
    """The cards whose vendor the user allows, and the rule said once in the assumptions."""
    req = ctx.req
    if not (req.exclude_vendors or req.only_vendors or req.exclude_gpus):
        return cards
    kept = [g for g in cards if vendor_ok(req, g)]
    rule = (ctx.t("only " + ", ".join(req.only_vendors), "只用 " + "、".join(req.only_vendors)) if req.only_vendors
            else ctx.t("no " + ", ".join(req.exclude_vendors + _card_names(ctx, req.exclude_gpus)),
                       "不用 " + "、".join(req.exclude_vendors + _card_names(ctx, req.exclude_gpus))))
    note = ctx.t(f"cards: {rule} (as you asked); {len(cards) - len(kept)} card(s) of the table left out",
                 f"卡：{rule}（按你的要求）；表里 {len(cards) - len(kept)} 种卡不考虑")
    ctx.note(note)
    return kept


def _short(ctx: Ctx, gpu_id: str) -> str:
    from assistant.restate import gpu_label

    return gpu_label(gpu_id, ctx.deps.catalog)



USES: dict[str, set[str]] = {}  # filled by the plan_* modules: the Request fields each intent's tools consume


def assumptions_md(lang: str, items: list[str]) -> str:
    """The assumptions section, each line in the answer's language where assistant/zh.py knows the line."""
    items = in_lang(lang, list(dict.fromkeys(items))[:14])  # each assumption once
    return "" if not items else "\n\n**" + T(lang, "assumptions") + "**\n" + "\n".join(f"- {a}" for a in items)


WITHHELD = ("[withheld: this passage of a user-added document contains text addressed to an AI (instructions); "
            "it is data, not quoted as fact]")


def trust_mark(lang: str, c: Citation) -> str:
    """' (user-added document, unverified)' for passages that are not the project's own sourced notes."""
    if c.trust != "user":
        return ""
    return (" （用户添加的文档，未经核实" + ("；含有针对 AI 的指令，已隐去" if c.flagged else "") + "）") if lang == "zh" else \
        (" (user-added document, unverified" + ("; contains instructions to an AI, withheld" if c.flagged else "") + ")")


def sources_md(lang: str, cites: list[Citation]) -> str:
    good = [c for c in cites if c.source != "(none)"]
    return "" if not good else "\n\n**" + T(lang, "sources") + "**\n" + "\n".join(
        f"- {c.title} — `{c.source}`" + (("（截至 {}）" if lang == "zh" else " (as of {})").format(c.as_of) if c.as_of else "") + trust_mark(lang, c) for c in good)


def memory_classes(ctx: Ctx) -> dict[int, list]:
    """The table's data-centre and desk cards (the user's vendor, where one was named) by marketed memory class
    ('24' -> RTX 4090, RTX 3090, L4, ...), smallest class first."""
    cards = sorted((g for g in ctx.deps.catalog.gpus if g.vendor not in ("Apple", "custom") and vendor_ok(ctx.req, g)),
                   key=lambda g: g.memory_gb)
    by_class: dict[int, list] = {}
    for g in cards:
        by_class.setdefault(round(g.memory_gb), []).append(g)
    return by_class


def short_card_name(g) -> str:
    return g.name.replace("NVIDIA ", "").replace("GeForce ", "")


def smallest_cards(ctx: Ctx, holds) -> str | None:
    """'Smallest single GPU that holds it: the 48 GB class (L40S, RTX A6000, ...), 44.1 GB': for a memory question
    that named no card. `holds(gpu)` -> (fits, GB per GPU)."""
    for mem, group in memory_classes(ctx).items():
        fitting = [(g, gb) for g in group for ok, gb in [holds(g)] if ok]
        if fitting:
            names = ", ".join(short_card_name(g) for g, _ in fitting[:4])
            g0, gb = fitting[0]
            real = (g0.memory_bytes or 0) / 1e9
            # '141 GB class, 146.4 GB needed' reads as a contradiction: the card's real capacity says why it holds
            cap_en = f" (each has {real:.1f} GB as the driver reports it: tight)" if gb > mem and real else ""
            cap_zh = f"（驱动报告每张实际 {real:.1f} GB，很紧）" if gb > mem and real else ""
            return ctx.t(f"**Smallest single GPU that holds it**: the {mem} GB class ({names}), {gb:.1f} GB needed"
                         f"{cap_en}; smaller cards need two or more.",
                         f"**单卡放得下的最小显存**：{mem} GB 档（{names}），需要 {gb:.1f} GB{cap_zh}；更小的卡要两张以上。")
    return None

