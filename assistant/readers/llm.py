"""The LLM reader: a chat model fills the same Request through structured output; the planner answers it.

A small local model only has to fill a form, not write numbers: every figure still comes from the tools.
Names the model writes are resolved through the catalog; anything that does not validate falls back to
the rules reader's reading, and where the two readers disagree the answer says which one was used.
"""
from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from assistant.readers.rules import Reading
from assistant.request import META_FIELDS, Intent, Request
from knowledge.catalog import Catalog

PROMPT = """You read questions about GPUs for large language models and fill in a form. You never answer the question.
Fill only what the message states (or, for a follow-up, what it changes); leave every other field null.
intent: training_memory (does a fine-tune/pre-train fit, how many GPUs), inference_memory (can it run, VRAM to run),
serving (concurrent users, requests per second, an engine's capacity), inference_speed (tokens/s, latency),
training_time (how long, GPU-hours), cost (what a job or period costs, rent vs buy), price (what a GPU costs),
published_run (what a lab reported for a training run), recommend (which GPU to choose for a job), compare (two or
more GPUs side by side), spec (one GPU's specs), explain (a concept), fact_check (a pasted claim), out_of_scope.
model: a catalog id from this list when the message names one of them, else the size as written (70b, 7b): {models}
gpu: a catalog id from this list: {gpus}
Lengths in tokens (8k = 8192). tokens: training tokens as a number (1T = 1e12, 1000亿 = 1e11). Money in the currency
written (元/块/¥ = CNY, $ = USD). period_hours: a year = 8760, a month = 730, a day = 24.
{previous}Return only the form."""


class LLMForm(BaseModel):
    """What a person stated about a GPU job; null for anything not stated."""

    intent: Intent
    method: Literal["full", "lora", "qlora", "pretrain", "inference"] | None = None
    model: str | None = Field(None, description="catalog model id, or a bare size such as 70b")
    gpu: str | None = Field(None, description="catalog GPU id")
    gpus: list[str] = Field(default_factory=list, description="every GPU named, for comparisons")
    num_gpus: int | None = None
    gpus_per_node: int | None = None
    nodes: int | None = None
    precision: Literal["bf16", "fp16", "fp32", "fp8", "int8", "int4", "nf4"] | None = None
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = None
    seq_len: int | None = Field(None, description="training sequence length, tokens")
    context: int | None = Field(None, description="inference context per sequence, tokens")
    prompt_len: int | None = None
    output_len: int | None = None
    micro_batch: int | None = None
    batch: int | None = None
    concurrent_users: int | None = None
    requests_per_s: float | None = None
    engine: Literal["vllm", "sglang", "hf", "llamacpp", "ollama", "tensorrt-llm"] | None = None
    tokens: float | None = None
    epochs: float | None = None
    zero: int | None = None
    offload: Literal["none", "optimizer", "all"] | None = None
    lora_rank: int | None = None
    price_per_gpu_hour: float | None = None
    purchase_price: float | None = None
    used: bool | None = None
    utilization: float | None = Field(None, description="0-1")
    period_hours: float | None = None
    hours_per_day: float | None = None
    budget: float | None = None
    currency: Literal["USD", "CNY"] | None = None
    deadline_hours: float | None = None


def _prompt(catalog: Catalog, previous: dict | None) -> str:
    prev = ""
    if previous:
        kept = {k: v for k, v in previous.items() if k in LLMForm.model_fields and v not in (None, [], False)}
        prev = ("The previous message was understood as " + json.dumps(kept, ensure_ascii=False)
                + ". If this message is a follow-up that changes part of it, return the whole updated form.\n")
    return PROMPT.format(models=", ".join(m.id for m in catalog.models), gpus=", ".join(g.id for g in catalog.gpus),
                         previous=prev)


def _resolve(form: LLMForm, catalog: Catalog, rules: Reading) -> tuple[dict, list[str]]:
    """The form's fields with names resolved through the catalog; what could not be used, said."""
    notes: list[str] = []
    fields = {k: v for k, v in form.model_dump().items() if v not in (None, [])}
    if form.model:
        try:
            rec, generic = catalog.model(form.model)
            fields["model"] = form.model.lower() if generic else rec.id
        except (LookupError, ValueError):
            notes.append(f"the LLM reader named model {form.model!r}, which the catalog does not know; "
                         f"the rules reader's {rules.request.model!r} was used")
            fields["model"] = rules.request.model
    gpus = []
    for name in [form.gpu, *form.gpus]:
        if not name:
            continue
        try:
            gid = catalog.gpu(name)[0].id
            if gid not in gpus:
                gpus.append(gid)
        except LookupError:
            fields["unknown_gpu"] = name
    fields.pop("gpu", None)
    if gpus:
        fields["gpu"], fields["gpus"] = gpus[0], gpus
    return {k: v for k, v in fields.items() if v is not None}, notes


def read_with_llm(text: str, chat_model, catalog: Catalog, rules: Reading, previous: dict | None = None) -> Reading:
    """The Request a chat model reads from `text`; raises ValueError when its form does not validate."""
    from langchain_core.messages import HumanMessage, SystemMessage

    reader = chat_model.with_structured_output(LLMForm)
    out = reader.invoke([SystemMessage(_prompt(catalog, previous)), HumanMessage(text)])
    try:
        form = out if isinstance(out, LLMForm) else LLMForm.model_validate(out)
    except ValidationError as e:
        raise ValueError(f"the LLM reader's form did not validate: {e.error_count()} error(s)") from e
    fields, notes = _resolve(form, catalog, rules)
    try:
        request = Request(**fields, lang=rules.request.lang, stated=sorted(k for k in fields if k not in META_FIELDS
                                                                          and k != "intent"))
    except ValidationError as e:
        raise ValueError(f"the LLM reader's form did not make a valid request: {e.error_count()} error(s)") from e
    return Reading(request=request, warnings=rules.warnings + notes, invalid=rules.invalid)


def disagreements(llm: Request, rules: Request) -> list[str]:
    """Fields where the two readers read the question differently ('num_gpus: llm 16, rules 8')."""
    keys = (set(LLMForm.model_fields) - {"gpus"}) | {"intent"}
    out = []
    for k in sorted(keys):
        a, b = getattr(llm, k), getattr(rules, k)
        if a != b and not (isinstance(a, float) and isinstance(b, float) and abs(a - b) <= 1e-6 * max(abs(a), abs(b))):
            out.append(f"{k}: llm {a}, rules {b}")
    return out
