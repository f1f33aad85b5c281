"""Pure functions from an Answer (or a tool result) to what the web UI shows: verdict, chart rows, tables.

No Gradio here, so each is easy to test: the UI modules only wire these to components.
"""
from __future__ import annotations

import pandas as pd

from assistant.answer import Answer, ToolCall
from assistant.compose import money
from ui.web.i18n import t

CHART_COLUMNS = ["option", "key", "GB", "order", "total"]
SIZING_TOOLS = ("size_train", "size_infer", "plan_serve")


def option_label(call: ToolCall) -> str:
    """'qlora · 1× a100-80gb' for a training call, 'int4 · 2× l40s' for an inference call, 'vllm · TP4 × 2 · h100' for
    a serving plan."""
    a, r = call.args, call.result
    if call.name == "plan_serve":
        return f"{r.get('engine') or a.get('engine') or 'vllm'} · TP{r.get('tp', 1)} × {r.get('replicas', 1)} · {a.get('gpu')}"
    if call.name == "size_train":
        what = a.get("method") or r.get("method")
    else:
        what = a.get("precision") or r.get("precision") or "bf16"
    extra = "".join(f" · {k} {a[k]}" for k in ("offload", "zero", "seq_len", "context", "batch") if a.get(k) not in (None, "none"))
    return f"{what} · {r.get('num_gpus', a.get('num_gpus', 1))}× {r.get('gpu') or a.get('gpu') or '?'}{extra}"


def breakdown_frame(calls: list[ToolCall], lang: str = "en") -> pd.DataFrame:
    """Long-format rows (option, component key, GB, stacking order, the option's per-GPU total as the verdict states
    it) for the stacked chart: one bar per sizing call,
    in the order the answer computed them. The GPU's usable memory is not a bar: see capacities()."""
    rows: list[dict] = []
    seen: set[str] = set()
    for call in calls:
        if call.name not in SIZING_TOOLS or not isinstance(call.result.get("breakdown_gb"), dict):
            continue
        label = option_label(call)
        if label in seen:
            continue
        seen.add(label)
        total = call.result.get("per_gpu_gb") or sum(call.result["breakdown_gb"].values())
        for i, (key, gb) in enumerate(call.result["breakdown_gb"].items()):
            if gb and gb > 0:
                rows.append({"option": label, "key": key, "GB": round(float(gb), 2), "order": i, "total": float(total)})
    return pd.DataFrame(rows, columns=CHART_COLUMNS)


def capacities(calls: list[ToolCall]) -> dict[str, float]:
    """Usable GB per GPU id, from the sizing calls (drawn as a line across the bars)."""
    out: dict[str, float] = {}
    for call in calls:
        if call.name in SIZING_TOOLS and call.result.get("usable_gb") and call.result.get("gpu"):
            out.setdefault(call.result["gpu"], round(float(call.result["usable_gb"]), 2))
    return out


def chart(calls: list[ToolCall], lang: str = "en"):
    """The memory chart for these calls (ui.web.charts), or None when none of them sized memory."""
    from ui.web.charts import memory_chart

    return memory_chart(breakdown_frame(calls, lang), capacities(calls), lang)


def verdict_markdown(answer: Answer) -> str:
    """The understood request in small type, then the verdict with its number, whatever the intent: fit, GPUs for a
    load (serving), days (training time), rent vs buy (cost); else the answer's own headline."""
    lines = [line for line in answer.answer.splitlines() if line.strip()]
    understood = lines[0] if lines and lines[0].startswith(("Understood", "理解为")) else ""
    rest = lines[1:] if understood else lines
    head = _headline(answer) or (f"### {rest[0].replace('**', '').strip('# ')}" if rest else "")
    return (f"<small>{understood}</small>\n\n" if understood else "") + head


def _headline(answer: Answer) -> str:
    lang, f, v = answer.lang, answer.figures or {}, answer.verdict
    zh = lang == "zh"
    if answer.comparison:  # several asks compared: which wins, by how much (each ask has its own section below)
        return "### " + answer.comparison.replace("**", "")
    if answer.intent == "cost" and f.get("cost_per_million_tokens") is not None:
        cur = "¥" if f.get("currency") == "CNY" else "$"
        return (f"### 每百万 token {cur}{f['cost_per_million_tokens']:,.3f} · 每小时 {cur}{f['cost_per_hour']:,.2f}" if zh else
                f"### {cur}{f['cost_per_million_tokens']:,.3f} per million tokens · {cur}{f['cost_per_hour']:,.2f}/h")
    if answer.intent == "cost" and f.get("rent_per_hour") is not None and f.get("rent_cost") is None:
        cur = "¥" if f.get("currency") == "CNY" else "$"
        return (f"### 租：每小时 {cur}{f['rent_per_hour']:,.2f} · 每月 {cur}{f['rent_per_month']:,.0f}" if zh else
                f"### rent: {cur}{f['rent_per_hour']:,.2f}/h · {cur}{f['rent_per_month']:,.0f}/month")
    if answer.intent == "compare" and f.get("best_for_training"):
        jobs = [("training", "训练", "training"), ("decode", "解码", "decode"), ("memory", "显存", "memory")]
        parts = [(f"{zh_word}：{f[f'best_for_{k}']}（{f[f'best_for_{k}_ratio']:.2f}×）" if zh else
                  f"{en_word}: {f[f'best_for_{k}']} ({f[f'best_for_{k}_ratio']:.2f}×)")
                 for k, zh_word, en_word in jobs if f.get(f"best_for_{k}")]
        return "### " + " · ".join(parts)
    if answer.intent == "recommend" and v is not None and v.gpu:
        cost = f.get("cost_usd")
        per = ("/小时" if zh else "/h") if f.get("cost_per_hour") else ""
        price = f" · {money(lang, cost, 2 if per else 0)}{per}" if cost else ""
        return (f"### 选 {v.num_gpus} 张 {v.gpu}{price}" if zh else f"### pick {v.num_gpus}× {v.gpu}{price}")
    if f.get("serve_total_gpus"):
        gpu = v.gpu if v else ""
        cost = f.get("serve_cost_per_million_output_usd")
        shape = f"TP{f['serve_tp']}" + (f" × PP{f['serve_pp']}" if f.get("serve_pp", 1) > 1 else "") + f" × {f['serve_replicas']}"
        money_text = (f" · {money(lang, cost, 2)}/1M " + ("输出 token" if zh else "output tokens")) if cost else ""
        return (f"### {f['serve_total_gpus']}× {gpu} ({shape}) · TTFT {f['serve_ttft_s']:.2f} s · "
                f"ITL {f['serve_itl_ms']:.0f} ms{money_text}")
    if answer.intent == "training_time" and f.get("wall_hours") is not None:
        cost = f" · {money(lang, f['cost_usd'])}" if f.get("cost_usd") else ""
        days, hours, gh = f.get("wall_days") or f["wall_hours"] / 24, f["wall_hours"], f.get("gpu_hours", 0)
        lo, hi = f.get("wall_hours_low"), f.get("wall_hours_high")
        band = "" if lo is None or hi is None else (f" · 区间 {lo / 24:,.1f}-{hi / 24:,.1f} 天" if zh else
                                                    f" · band {lo / 24:,.1f}-{hi / 24:,.1f} days")
        return (f"### ≈ {days:,.1f} 天（{hours:,.0f} 小时）{band} · {gh:,.0f} GPU·时{cost}" if zh else
                f"### ≈ {days:,.1f} days ({hours:,.0f} h){band} · {gh:,.0f} GPU-hours{cost}")
    if answer.intent == "cost" and f.get("rent_cost") is not None and f.get("buy_cost") is not None:
        cur = "¥" if f.get("currency") == "CNY" else "$"
        cheaper = {"buy": "买" if zh else "buy", "rent": "租" if zh else "rent"}.get(f.get("cheaper"), f.get("cheaper"))
        be = f.get("break_even_months")
        tail = (f" · 回本 {be:.1f} 个月" if zh else f" · break-even {be:.1f} months") if be else ""
        return (f"### {'更划算：' if zh else 'cheaper: '}{cheaper} · {'租' if zh else 'rent'} {cur}{f['rent_cost']:,.0f} vs "
                f"{'买' if zh else 'buy'} {cur}{f['buy_cost']:,.0f}{tail}")
    if v is None or v.fits is None:
        return ""
    mark = "✔" if v.fits else "✘"
    fit = t(lang, "fits") if v.fits else t(lang, "does_not_fit")
    count = f"{v.num_gpus}× " if v.num_gpus else ""
    method = f"{v.method} · " if v.method else ""
    tail = "" if v.fits or not v.min_gpus else (f" — 至少 {v.min_gpus} 张" if lang == "zh" else f" — needs at least {v.min_gpus}")
    per_gpu = f"{v.per_gpu_gb:.1f} GB/GPU" if v.per_gpu_gb is not None else ""
    return f"### {mark} {method}{count}{v.gpu or ''}: **{fit}** ({per_gpu}){tail}"


def options_rows(answer: Answer) -> tuple[list[str], list[list]]:
    """(headers, rows) of the answer's options: method and GPUs, fits, GB per GPU, minimum GPUs."""
    lang = answer.lang
    headers = [t(lang, "col_option"), t(lang, "col_fits"), t(lang, "col_per_gpu"), t(lang, "col_min")]
    rows = []
    for o in answer.options or ([answer.verdict] if answer.verdict else []):
        label = " · ".join(x for x in (o.method, f"{o.num_gpus}× {o.gpu}" if o.gpu else None) if x)
        fits = "-" if o.fits is None else t(lang, "yes") if o.fits else t(lang, "no")
        rows.append([label, fits, "-" if o.per_gpu_gb is None else round(o.per_gpu_gb, 1),
                     "-" if o.min_gpus is None else o.min_gpus])
    return headers, rows


def citations_markdown(answer: Answer) -> str:
    """Each source with its as-of date; links where the source is a URL."""
    if not answer.citations:
        return ""
    lines = []
    for c in answer.citations:
        src = f"<{c.source}>" if c.source.startswith("http") else f"`{c.source}`"
        as_of = f" (as of {c.as_of})" if answer.lang == "en" and c.as_of else f"（截至 {c.as_of}）" if c.as_of else ""
        lines.append(f"- **{c.title}**: {src}{as_of}")
    return f"**{t(answer.lang, 'citations')}**\n\n" + "\n".join(lines)


def tool_calls_payload(answer: Answer) -> list[dict]:
    """The tool calls, arguments and results, as JSON for a collapsed viewer."""
    return [c.model_dump(mode="json") for c in answer.tool_calls]


def chat_markdown(answer: Answer) -> str:
    """The answer as shown in the chat, with its warnings as notes."""
    notes = "".join(f"\n\n> ⚠ {w}" for w in answer.warnings)
    return answer.answer + notes


def launch_text(calls: list[ToolCall], verdict=None) -> str:
    """What to paste to run the sized job: for training, ds_config.json plus `accelerate launch` and `torchrun` lines
    (tools.launch_config) for the option the verdict chose (else the first that fits); for serving, the engine's
    launch line from the plan. Empty when the answer sized nothing runnable."""
    from tools.launch_config import TrainingLayout, deepspeed_json, training_launch

    for call in calls:
        if call.name == "plan_serve" and call.result.get("launch_command"):
            return "# " + (call.result.get("engine") or "engine") + "\n" + call.result["launch_command"]
    train = [c for c in calls if c.name == "size_train" and c.result.get("layout")]
    if verdict is not None and verdict.method:
        train = [c for c in train if c.args.get("method") == verdict.method and c.result.get("num_gpus") == verdict.num_gpus] \
            + train
    pick = next((c for c in train if c.result.get("fits")), None)
    if pick is None:
        return ""
    lay = pick.result["layout"]
    launch = training_launch(TrainingLayout(
        num_gpus=pick.result["num_gpus"], zero=lay.get("zero", 0), offload=lay.get("offload", "none"),
        micro_batch=pick.args.get("micro_batch") or 1, precision=pick.args.get("precision") or "mixed",
        recompute=lay.get("recompute", "full"), method=pick.args.get("method") or "full"))
    parts = [f"# {option_label(pick)}", "# accelerate", launch.accelerate, "# torchrun", launch.torchrun]
    ds = deepspeed_json(launch)
    if ds:
        parts += ["# ds_config.json", ds]
    return "\n".join(parts + [f"# {n}" for n in launch.notes])


def calc_prefill(answer: Answer) -> dict | None:
    """The Calculator form (ui.web.calculator.CalcForm fields) for the configuration the answer's verdict is about, so
    'open in calculator' shows the same estimate, ready to change. None when the answer sized nothing."""
    from pydantic import ValidationError

    from ui.web.calculator import CalcForm

    v = answer.verdict
    calls = [c for c in answer.tool_calls if c.name in SIZING_TOOLS]
    if v is not None and v.method:
        calls = [c for c in calls if c.args.get("method") == v.method and c.result.get("num_gpus") == v.num_gpus] + calls
    calls = [c for c in calls if c.name == "plan_serve"] + calls  # a serving answer's headline is its plan
    call = next(iter(calls), None)
    if call is None:
        return None
    a = dict(call.args)
    a["model"] = a["model"].removeprefix("generic-")  # a size the question gave ('70b'), as the form takes it
    if call.name == "plan_serve":
        form = {"mode": "serve", "model": a["model"], "gpu": a["gpu"], "users": a.get("users") or 32,
                "prompt_len": a.get("prompt_len"), "output_len": a.get("output_len"), "ttft_s": a.get("ttft_s"),
                "itl_ms": a.get("itl_ms"), "serve_engine": a.get("engine"), "weights": a.get("precision") or "native"}
    elif call.name == "size_train":
        form = {"mode": "train", "model": a["model"], "gpu": a["gpu"], "num_gpus": a.get("num_gpus"),
                "method": a.get("method"), "seq_len": a.get("seq_len"), "micro_batch": a.get("micro_batch"),
                "precision": a.get("precision"), "zero": None if a.get("zero") is None else str(a["zero"]),
                "offload": a.get("offload")}
    else:
        form = {"mode": "infer", "model": a["model"], "gpu": a["gpu"], "num_gpus": a.get("num_gpus"),
                "weights": a.get("precision") or "native", "context": a.get("context"), "batch": a.get("batch"),
                "engine": a.get("engine") if a.get("engine") in ("hf", "vllm") else None,
                "prefill_tokens": a.get("prompt_len")}
    try:
        return CalcForm(**{k: x for k, x in form.items() if x is not None}).model_dump()
    except ValidationError:  # a value the form cannot hold (an engine it lacks): no prefill rather than a wrong one
        return None
