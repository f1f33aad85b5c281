"""Pure functions from an Answer (or a tool result) to what the web UI shows: verdict, chart rows, tables.

No Gradio here, so each is easy to test: the UI modules only wire these to components.
"""
from __future__ import annotations

import pandas as pd

from assistant.answer import Answer, ToolCall
from ui.web.i18n import t

CHART_COLUMNS = ["option", "component", "GB"]
SIZING_TOOLS = ("size_train", "size_infer")


def option_label(call: ToolCall) -> str:
    """'qlora · 1× a100-80gb' for a training call, 'int4 · 2× l40s' for an inference call."""
    a, r = call.args, call.result
    if call.name == "size_train":
        what = a.get("method") or r.get("method")
    else:
        what = a.get("precision") or r.get("precision") or "bf16"
    extra = "".join(f" · {k} {a[k]}" for k in ("offload", "zero", "seq_len", "context", "batch") if a.get(k) not in (None, "none"))
    return f"{what} · {r.get('num_gpus', a.get('num_gpus', 1))}× {r.get('gpu') or a.get('gpu') or '?'}{extra}"


def breakdown_frame(calls: list[ToolCall], lang: str = "en") -> pd.DataFrame:
    """Long-format rows (option, component, GB) for a stacked bar chart, one bar per sizing call, plus a
    'usable on the GPU' bar per GPU so the eye can compare need with capacity."""
    rows: list[dict] = []
    usable: dict[str, float] = {}
    seen: set[str] = set()
    for call in calls:
        if call.name not in SIZING_TOOLS or not isinstance(call.result.get("breakdown_gb"), dict):
            continue
        label = option_label(call)
        if label in seen:
            continue
        seen.add(label)
        for component, gb in call.result["breakdown_gb"].items():
            if gb and gb > 0:
                rows.append({"option": label, "component": component, "GB": round(float(gb), 2)})
        if call.result.get("usable_gb") and call.result.get("gpu"):
            usable[call.result["gpu"]] = float(call.result["usable_gb"])
    for gpu, gb in usable.items():
        rows.append({"option": f"{t(lang, 'usable')}: {gpu}", "component": t(lang, "usable"), "GB": round(gb, 2)})
    return pd.DataFrame(rows, columns=CHART_COLUMNS)


# Colours for stacked components, in order of first appearance; the GPU's usable memory is always grey.
PALETTE = ["#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#79706e",
           "#1f77b4", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#17becf", "#9edae5"]
USABLE_COLOR = "#bab0ac"


def y_range(frame: pd.DataFrame) -> list[float] | None:
    """[0, a little above the tallest stacked bar]: memory bars always start at zero."""
    if not len(frame):
        return None
    top = float(frame.groupby(CHART_COLUMNS[0])[CHART_COLUMNS[2]].sum().max())
    return [0, top * 1.1 if top > 0 else 1.0]


def color_map(frame: pd.DataFrame, lang: str = "en") -> dict[str, str]:
    """A distinct colour per component (cycling past 20), grey for 'usable on the GPU'."""
    usable = t(lang, "usable")
    components = [c for c in dict.fromkeys(frame["component"]) if c != usable]
    colors = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(components)}
    if usable in set(frame["component"]):
        colors[usable] = USABLE_COLOR
    return colors


def verdict_markdown(answer: Answer) -> str:
    """The understood request in small type, then the verdict with its number, whatever the intent: fit, GPUs for a
    load (serving), days (training time), rent vs buy (cost); else the answer's own headline."""
    lines = [line for line in answer.answer.splitlines() if line.strip()]
    understood = lines[0] if lines and lines[0].startswith(("Understood", "理解为")) else ""
    rest = lines[1:] if understood else lines
    head = _headline(answer) or (f"### {rest[0].strip('*# ')}" if rest else "")
    return (f"<small>{understood}</small>\n\n" if understood else "") + head


def _headline(answer: Answer) -> str:
    lang, f, v = answer.lang, answer.figures or {}, answer.verdict
    zh = lang == "zh"
    if f.get("serve_total_gpus"):
        gpu = v.gpu if v else ""
        cost = f.get("serve_cost_per_million_output_usd")
        shape = f"TP{f['serve_tp']}" + (f" × PP{f['serve_pp']}" if f.get("serve_pp", 1) > 1 else "") + f" × {f['serve_replicas']}"
        money = (f" · ${cost:g}/1M " + ("输出 token" if zh else "output tokens")) if cost else ""
        return (f"### {f['serve_total_gpus']}× {gpu} ({shape}) · TTFT {f['serve_ttft_s']:.2f} s · "
                f"ITL {f['serve_itl_ms']:.0f} ms{money}")
    if answer.intent == "training_time" and f.get("wall_hours") is not None:
        cost = f" · ${f['cost_usd']:,.0f}" if f.get("cost_usd") else ""
        days, hours, gh = f.get("wall_days") or f["wall_hours"] / 24, f["wall_hours"], f.get("gpu_hours", 0)
        return (f"### ≈ {days:,.1f} 天（{hours:,.0f} 小时）· {gh:,.0f} GPU·时{cost}" if zh else
                f"### ≈ {days:,.1f} days ({hours:,.0f} h) · {gh:,.0f} GPU-hours{cost}")
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
