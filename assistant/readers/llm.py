"""The LLM reader: a chat model fills the same Request through structured output; the planner answers it.

A small local model only has to fill a form, not write numbers: every figure still comes from the tools.
Names the model writes are resolved through the catalog; anything that does not validate falls back to
the rules reader's reading, and where the two readers disagree the answer says which one was used.
"""
from __future__ import annotations

import json
import re

from pydantic import BaseModel, Field, ValidationError, create_model

from assistant.readers.numbers import written_numbers
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
Fields: {fields}.
{previous}Return only the form, as one JSON object."""


# The Request fields a model is asked to fill (the rest are derived, or too fine for a small model's form).
FORM_FIELDS = ("method", "model", "gpu", "gpus", "num_gpus", "gpus_per_node", "nodes", "precision", "kv_dtype", "seq_len",
               "context", "prompt_len", "output_len", "micro_batch", "batch", "concurrent_users", "requests_per_s", "engine",
               "tokens", "epochs", "zero", "offload", "lora_rank", "price_per_gpu_hour", "purchase_price", "used",
               "utilization", "period_hours", "hours_per_day", "budget", "currency", "deadline_hours")


def _form_model() -> type[BaseModel]:
    """LLMForm: the Request's own field types and descriptions (one place knows each field), all optional but intent,
    without the Request's bounds (a wrong value is caught afterwards and named, not a failed form)."""
    fields: dict = {"intent": (Intent, Field(description=Request.model_fields["intent"].description))}
    for name in FORM_FIELDS:
        info = Request.model_fields[name]
        default = Field(default_factory=list) if name == "gpus" else Field(None)
        default.description = info.description
        fields[name] = (info.annotation, default)
    return create_model("LLMForm", __doc__="What a person stated about a GPU job; null for anything not stated.", **fields)


LLMForm = _form_model()


def _prompt(catalog: Catalog, previous: dict | None) -> str:
    prev = ""
    if previous:
        kept = {k: v for k, v in previous.items() if k in LLMForm.model_fields and v not in (None, [], False)}
        prev = ("The previous message was understood as " + json.dumps(kept, ensure_ascii=False)
                + ". If this message is a follow-up that changes part of it, return the whole updated form.\n")
    return PROMPT.format(models=", ".join(m.id for m in catalog.models), gpus=", ".join(g.id for g in catalog.gpus),
                         fields=", ".join(LLMForm.model_fields), previous=prev)


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


# How each endpoint takes a schema: OpenAI-style json_schema first; llama.cpp's server (and other local servers)
# accept only {"type": "json_object", "schema": ...}. The first style an endpoint accepts is remembered per
# endpoint (base URL and model name), so the refused probe is not repeated on every question.
_STYLE: dict[tuple, str] = {}


def _endpoint(chat_model) -> tuple:
    return (type(chat_model).__name__, str(getattr(chat_model, "openai_api_base", None) or getattr(chat_model, "base_url", "")),
            str(getattr(chat_model, "model_name", None) or getattr(chat_model, "model", "")), id(chat_model)
            if not (getattr(chat_model, "openai_api_base", None) or getattr(chat_model, "base_url", None)) else 0)


def _fill(chat_model, messages: list) -> object:
    """The model's form, by the first structured-output style the endpoint accepts."""
    key = _endpoint(chat_model)
    style = _STYLE.get(key, "json_schema")
    if style == "json_schema":
        try:
            out = chat_model.with_structured_output(LLMForm).invoke(messages)
            _STYLE[key] = "json_schema"
            return out
        except Exception as e:  # the endpoint refuses the response_format style: try the JSON-object one
            if "json_schema" not in str(e) and "response_format" not in str(e):
                raise
            _STYLE[key] = "json_object"
    from assistant.llm_limits import checkpoint

    checkpoint()  # the second call only while the answer is still wanted
    msg = chat_model.bind(response_format={"type": "json_object", "schema": LLMForm.model_json_schema()}).invoke(messages)
    content = msg.content if isinstance(msg.content, str) else json.dumps(msg.content)
    try:
        return json.loads(content[content.find("{"):content.rfind("}") + 1])
    except ValueError as e:
        raise ValueError(f"the LLM reader did not return JSON: {content[:80]!r}") from e


# Words that must appear in the question for the model's choice of an enumerated field to stand.
_EVIDENCE: dict[str, dict[str, str]] = {
    "method": {"full": r"full|全参|全量|全部参数", "lora": r"(?<!q)lora", "qlora": r"qlora|4[\s-]?bit|4位",
               "pretrain": r"pre-?train|预训练|from scratch|从头|从零", "inference": r"infer|serv|run|推理|部署|跑"},
    "precision": {"bf16": r"bf16|bfloat", "fp16": r"fp16|half|半精度", "fp32": r"fp32|float32", "fp8": r"fp8",
                  "int8": r"int8|8[\s-]?bit|q8|8位", "int4": r"int4|4[\s-]?bit|awq|gptq|q4|4位", "nf4": r"nf4|bnb"},
    "kv_dtype": {"bf16": r"kv", "fp16": r"kv", "fp8": r"kv"},
    "engine": {"vllm": r"vllm", "sglang": r"sglang", "hf": r"transformers|hf|hugging", "llamacpp": r"llama[.\s-]?cpp",
               "ollama": r"ollama", "tensorrt-llm": r"tensorrt|trt"},
    "offload": {"none": r"offload|卸载", "optimizer": r"offload|卸载", "all": r"offload|卸载"},
    "currency": {"CNY": r"¥|￥|元|块|rmb|人民币|cny", "USD": r"\$|usd|美元|美金|dollar"},
    "used": {"True": r"二手|used|second|refurb"},
}
# A number the question writes may stand in a field as written (with its k, 万, 亿, B or T), or as hours for
# a period of days, weeks, months or years, or as a share for a percentage.
_SCALES: dict[str, tuple[float, ...]] = {
    **{f: (1, 24, 168, 730, 8760) for f in ("period_hours", "deadline_hours")},
    "utilization": (0.01, 1),
}
_LENGTHS = ("seq_len", "context", "prompt_len", "output_len")


def _grounded(name: str, value, text: str, rules: Request) -> bool:
    """True when the question shows evidence for the model's value of a field (or the rules reader read the same)."""
    if getattr(rules, name, None) == value:
        return True
    if name in _EVIDENCE:
        pattern = _EVIDENCE[name].get(str(value))
        return bool(pattern and re.search(pattern, text))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return name in ("intent",)
    if (name in _LENGTHS and value < 64) or (name == "utilization" and not 0 < value <= 1):
        return False
    numbers = written_numbers(text) + ([1.0] if re.search(r"\b(?:a|an|one|single)\b|单|一", text) and name == "num_gpus" else [])
    return any(value and abs(n * scale / value - 1) <= 0.02 for n in numbers for scale in _SCALES.get(name, (1,)))


def _named(value: str, text: str, catalog: Catalog, kind: str) -> bool:
    """A model or GPU id whose name (an alias, or a bare size) the question writes as a whole: spaces, '-' and '_'
    inside the name are optional ('llama 3.1 8b'), but it may not start or end inside a longer word or number
    ('a40' is not written in 'on a 4090')."""
    try:
        rec = catalog.model(value)[0] if kind == "model" else catalog.gpu(value)[0]
    except (LookupError, ValueError):
        return False
    names = {rec.id, *rec.aliases, *(a.split("/")[-1] for a in rec.aliases)}
    if kind == "model" and re.fullmatch(r"[\d.]+b", value):
        names.add(value)
    for n in names:
        squashed = re.sub(r"[\s_-]+", "", n.lower())
        if not squashed:
            continue
        pattern = r"[\s_\-]*".join(map(re.escape, squashed))
        if re.search(rf"(?<![a-z0-9]){pattern}(?![0-9])", text):
            return True
    return False


def _owner(stated: dict, value) -> str:
    return next((k for k, v in stated.items() if v == value), "?")


def _keep_grounded(fields: dict, text: str, rules: Request, catalog: Catalog) -> tuple[dict, list[str]]:
    """The fields the question supports; the dropped ones named (a small model fills every blank it is given)."""
    low = text.lower()
    kept, dropped = {}, []
    stated = {k: getattr(rules, k) for k in rules.stated}
    taken = {v for v in stated.values() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    words = {str(v).lower(): k for k, v in stated.items() if isinstance(v, str) and not k.endswith("_text")}
    for name, value in fields.items():
        if name in stated and stated[name] != value:
            dropped.append(f"{name}={value} (the rules reader read {stated[name]})")
            continue  # what the rules reader read from the text stands; the model may add, not overwrite
        if name not in stated and isinstance(value, str) and words.get(value.lower()) not in (None, name):
            dropped.append(f"{name}={value} (that word is the question's {words[value.lower()]})")
            continue  # 'kv cache 用 fp8' says kv_dtype fp8, not weights in fp8
        if name not in stated and isinstance(value, (int, float)) and not isinstance(value, bool) and value in taken:
            dropped.append(f"{name}={value} (that number is the question's {_owner(stated, value)})")
            continue
        if name == "model":
            ok = value == rules.model or _named(value, low, catalog, "model")
        elif name == "gpu":
            ok = value in rules.gpus or _named(value, low, catalog, "gpu")
        elif name == "gpus":
            value = [g for g in value if g in rules.gpus or _named(g, low, catalog, "gpu")]
            ok = bool(value)
        elif name == "unknown_gpu":
            ok = str(value).lower() in low
        else:
            ok = _grounded(name, value, low, rules)
        if ok:
            kept[name] = value
        else:
            dropped.append(f"{name}={value}")
    return kept, dropped


def dropped_names(dropped: list[str]) -> set[str]:
    return {d.split("=", 1)[0] for d in dropped}


def read_with_llm(text: str, chat_model, catalog: Catalog, rules: Reading, previous: dict | None = None) -> Reading:
    """The Request a chat model reads from `text`; raises ValueError when its form does not validate."""
    from langchain_core.messages import HumanMessage, SystemMessage

    out = _fill(chat_model, [SystemMessage(_prompt(catalog, previous)), HumanMessage(text)])
    try:
        form = out if isinstance(out, LLMForm) else LLMForm.model_validate(out)
    except ValidationError as e:
        raise ValueError(f"the LLM reader's form did not validate: {e.error_count()} error(s)") from e
    fields, notes = _resolve(form, catalog, rules)
    fields, dropped = _keep_grounded(fields, text, rules.request, catalog)
    if "gpus" in fields and fields.get("gpu") not in fields["gpus"] and "gpu" not in rules.request.stated:
        fields["gpu"] = fields["gpus"][0]
    elif "gpus" in fields and "gpu" in rules.request.stated and rules.request.gpu not in fields["gpus"]:
        dropped.append(f"gpus={fields.pop('gpus')} (the rules reader read gpu {rules.request.gpu})")
    elif "gpu" in dropped_names(dropped):
        fields.pop("gpus", None)
    # the intent the rules reader found (from cues, or from what the stated inputs imply: 'q4' is a checkpoint
    # to run) stands; the model's choice fills in only where the rules reader found none. On the realistic set
    # the rules reader's intent was right where the two differed far more often than a small model's.
    if fields.get("intent") != rules.request.intent and rules.request.intent != "out_of_scope":
        notes.append(f"the LLM reader read the question as {fields.get('intent')}; the rules reader's {rules.request.intent} "
                     "(from cues in the question) was kept")
        fields["intent"] = rules.request.intent
    if dropped:
        notes.append("the LLM reader's values that nothing in the question supports were dropped: " + ", ".join(dropped[:12]))
    # what the rules reader read stands unless the model read it otherwise with evidence; for a follow-up the
    # rules reading already carries the last request
    base = {k: v for k, v in rules.request.model_dump().items() if k in rules.request.stated or
            (rules.request.follow_up and k in LLMForm.model_fields and v not in (None, []))}
    fields = base | fields
    try:
        request = Request(**{k: v for k, v in fields.items() if k not in ("lang", "stated", "follow_up")},
                          lang=rules.request.lang, follow_up=rules.request.follow_up,
                          stated=sorted(k for k in fields if k not in META_FIELDS and k not in ("intent", "lang")))
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
