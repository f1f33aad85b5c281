"""Request -> tool calls -> one Answer. Every number comes from a tool; every stated input reaches a tool
or is named as ignored; a missing essential becomes a question back; the answer opens with the Request restated."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.answer import Answer, Citation, ToolCall
from assistant.compose import T, fx_note, money
from assistant.zh import in_lang
from assistant.request import META_FIELDS, Request
from assistant.restate import clarification, restate
from knowledge.catalog import Catalog, UnknownItem


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
        replaced = {(p.gpu, p.kind) for p in overrides}
        kept = [p for p in self.prices() if (p.gpu, p.kind) not in replaced]
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
            res = self.index().search(query, k=k, mode="bm25")
        except Exception as e:  # the answer stands without citations; say why
            return [Citation(source="(none)", title="retrieval unavailable", snippet=str(e)[:200])]
        return [Citation(source=p.source, title=p.title + (f" / {p.section}" if p.section else ""),
                         snippet=WITHHELD if p.flagged_instructions else p.text[:240].replace("\n", " "), as_of=p.as_of,
                         trust="user" if p.untrusted else "project", flagged=p.flagged_instructions)
                for p in res.passages]


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
            self.assume(f"{_short(self, default)}", f"{_short(self, default)}（未指定 GPU）")
        rec, note = self.deps.catalog.gpu(gid)
        if note:
            self.notes.append(note)
        return rec

    def assume(self, en: str, zh: str) -> None:
        """A default the answer rests on: shown in the first line, in the user's language."""
        text = zh if self.zh else en
        if text not in self.assumed:
            self.assumed.append(text)

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
        self.ignored.append(f"{field_name}={value}: " + (why_zh if self.zh else why_en))

    def t(self, en: str, zh: str) -> str:
        return zh if self.zh else en


def _short(ctx: Ctx, gpu_id: str) -> str:
    from assistant.restate import gpu_label

    return gpu_label(gpu_id, ctx.deps.catalog)


# What each intent needs before it can answer without guessing.
NEEDS: dict[str, tuple[str, ...]] = {
    "training_memory": ("model",), "inference_memory": ("model",), "serving": ("model",),
    "inference_speed": ("model",), "training_time": ("model", "tokens"), "cost": ("gpu", "period_hours"),
    "price": ("gpu",), "spec": ("gpu",), "compare": ("gpus",),
}


def missing_inputs(req: Request) -> list[str]:
    """The essentials the request lacks for its intent (no sensible default exists for these)."""
    out = []
    needs = NEEDS.get(req.intent, ())
    if req.intent == "training_time" and len(req.gpus) >= 2:
        needs = ()  # a ratio between GPUs hardly depends on the job: defaults are stated instead
    if req.intent in ("training_memory", "inference_memory") and req.largest_model and not req.model:
        needs = ("gpu",)  # 'how big a model can 8 A100s train?': the model is the answer
    if req.intent == "cost" and req.break_even:
        needs = ("gpu",)  # when buying pays back does not depend on a job length
    for need in needs:
        if need == "gpus":
            if len(req.gpus) < 2:
                out.append("gpus")
        elif need == "period_hours":
            if not req.period_hours and not req.tokens and not req.deadline_hours:
                out.append("period_hours")
            elif req.tokens and not req.period_hours and not req.model:
                out.append("model")
        elif getattr(req, need) in (None, [], 0):
            out.append(need)
    return out


def plan(req: Request, deps: Deps, question: str, invalid: list[str] | tuple = ()) -> Answer:
    """The answer for an understood question."""
    from assistant import plan_facts, plan_infer, plan_money, plan_train

    handlers = {"training_memory": plan_train.training_memory, "training_time": plan_train.training_time,
                "inference_memory": plan_infer.inference_memory, "serving": plan_infer.serving,
                "inference_speed": plan_infer.inference_speed, "price": plan_money.price, "cost": plan_money.cost,
                "published_run": plan_facts.published_run, "recommend": plan_facts.recommend,
                "compare": plan_facts.compare, "spec": plan_facts.spec, "fact_check": plan_facts.fact_check,
                "explain": plan_facts.explain}
    ctx = Ctx(req=req, deps=deps, question=question)
    problems = list(invalid)
    if req.num_gpus is not None and req.num_gpus <= 0:
        problems.append("0 GPUs is not a configuration; give at least 1 (e.g. '8x H100', '单卡')")
    if problems:
        return _finish(ctx, Answer(answer=T(ctx.lang, "bad_input", msg="; ".join(problems)), lang=ctx.lang,
                                   intent=req.intent, warnings=problems, status="error"))
    if req.unknown_gpu and not req.gpu and req.intent not in ("explain", "out_of_scope"):
        return _unknown_gpu(ctx)
    missing = missing_inputs(req)
    if missing:
        return _ask(ctx, missing)
    handler = handlers.get(req.intent)
    if handler is None:
        return _finish(ctx, Answer(answer=T(ctx.lang, "oos"), lang=ctx.lang, intent="out_of_scope"))
    try:
        answer = handler(ctx)
    except UnknownItem as e:
        return _finish(ctx, Answer(answer=T(ctx.lang, "unknown", msg=e.message(ctx.lang)), lang=ctx.lang, intent=req.intent,
                                   warnings=[str(e)], status="error"))
    except ValueError as e:
        msg = str(e).split("\n")[0] if "validation error" not in str(e) else _pydantic_message(e)
        return _finish(ctx, Answer(answer=T(ctx.lang, "bad_input", msg=msg), lang=ctx.lang, intent=req.intent,
                                   warnings=[msg], status="error"))
    return _finish(ctx, answer)


USES: dict[str, set[str]] = {}  # filled by the plan_* modules: the Request fields each intent's tools consume


def _finish(ctx: Ctx, answer: Answer) -> Answer:
    """Open with the restatement, name the ignored inputs, attach the request."""
    req = ctx.req
    uses = USES.get(answer.intent, set())
    if answer.intent not in ("explain", "out_of_scope", "fact_check") and answer.status == "answered":
        already = {i.split("=", 1)[0] for i in ctx.ignored}
        for name in req.stated:
            if name == "model_path" and "model" in uses:
                continue
            if name == "gpu" and "gpus" in uses and req.gpu in req.gpus and len(req.gpus) >= 2:
                continue  # the GPU named first is one of the GPUs compared
            if name not in uses and name not in META_FIELDS and name not in already:
                ctx.ignore(name, "the tool that answers this question does not use it",
                           "回答这个问题的工具用不到它")
    req_dict = req.model_dump(mode="json")
    shown = req.model_copy(update=ctx.applied) if ctx.applied else req
    body = re.sub(r"generic (\S+) dense decoder", r"通用 \1 稠密解码器", answer.answer) if ctx.zh else answer.answer
    text = restate(shown, ctx.deps.catalog, ctx.assumed) + "\n\n" + body
    if ctx.ignored:
        text += "\n\n**" + ctx.t("Not used", "未使用的输入") + "**\n" + "\n".join(f"- {i}" for i in ctx.ignored)
    return answer.model_copy(update={"answer": text, "request": req_dict, "slots": req_dict, "ignored": ctx.ignored,
                                     "tool_calls": answer.tool_calls or ctx.calls})


def _ask(ctx: Ctx, missing: list[str]) -> Answer:
    clar = clarification(ctx.req, missing, ctx.deps.catalog)
    text = clar.question + "\n\n" + ctx.t("For example: ", "例如：") + " / ".join(clar.suggestions)
    req_dict = ctx.req.model_dump(mode="json")
    req_dict["awaiting"] = missing
    return Answer(answer=restate(ctx.req, ctx.deps.catalog, []) + "\n\n" + text, lang=ctx.lang, intent=ctx.req.intent,
                  status="needs_clarification", clarification=clar, request=ctx.req.model_dump(mode="json"),
                  slots=req_dict)


def _unknown_gpu(ctx: Ctx) -> Answer:
    """A card the table lacks: ask which one was meant (never size another card silently)."""
    name = ctx.req.unknown_gpu
    try:
        ctx.deps.catalog.gpu(name)
        suggestions: list[str] = []
    except UnknownItem as e:
        suggestions = e.suggestions
    stem = re.sub(r"[\s\-_]+", "", name.lower())
    chips = [g.id for g in ctx.deps.catalog.gpus if g.vendor == "Apple" and re.sub("-", "", g.id).startswith(stem)]
    if chips:  # 'M3 Max' without its memory: which configuration?
        suggestions = [c for c in chips if not re.search(r"-\d+c-", c)][:6] or chips[:6]
    clar = clarification(ctx.req, ["gpu"], ctx.deps.catalog)
    if suggestions:
        clar.suggestions = suggestions[:4]
    warn = ctx.t(f"unknown GPU '{name}': not in the GPU table; it was not replaced by another card",
                 f"未知 GPU：GPU 表里没有“{name}”，不会换成别的卡来算")
    text = (restate(ctx.req, ctx.deps.catalog, []) + "\n\n" + warn + ctx.t(" (`gpu-advisor gpus` lists all).", "（`gpu-advisor gpus` 列出全部）。")
            + "\n\n" + clar.question + "\n\n" + ctx.t("Did you mean: ", "是不是：") + " / ".join(clar.suggestions))
    req_dict = ctx.req.model_dump(mode="json")
    return Answer(answer=text, lang=ctx.lang, intent=ctx.req.intent, status="needs_clarification", clarification=clar,
                  request=req_dict, slots=req_dict | {"awaiting": ["gpu"]})


def _pydantic_message(e: Exception) -> str:
    """'num_gpus: Input should be less than or equal to 1024 (got 9000)': the field, the rule and the value."""
    if hasattr(e, "errors"):
        return "; ".join(f"{'.'.join(str(x) for x in err.get('loc', ()))}: {err.get('msg')} (got {err.get('input')!r})"
                         for err in e.errors()[:4])
    lines = [ln.strip() for ln in str(e).splitlines()[1:] if ln.strip() and not ln.strip().startswith("For further")]
    return "; ".join(lines[:4])


def assumptions_md(lang: str, items: list[str]) -> str:
    """The assumptions section, each line in the answer's language where assistant/zh.py knows the line."""
    items = in_lang(lang, items[:14])
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
