"""The first line of every answer: what was understood, in the user's language; and questions back.

'理解为：Qwen2.5-7B · LoRA · 1× RTX 4090 · 序列 8192 · batch 4' / 'Understood: Qwen2.5-7B · LoRA · 1× RTX 4090 · seq 8192'.
Defaults the planner used are listed after the stated inputs, marked as assumed.
"""
from __future__ import annotations

from assistant.request import Clarification, Request

_TASK = {
    "training_memory": ("training memory", "训练显存"), "training_time": ("training time", "训练时间"),
    "inference_memory": ("inference memory", "推理显存"), "serving": ("serving capacity", "服务并发"),
    "inference_speed": ("inference speed", "推理速度"), "cost": ("cost", "成本"), "price": ("GPU price", "GPU 价格"),
    "published_run": ("published training run", "公开的训练记录"), "recommend": ("GPU choice", "选卡"),
    "compare": ("GPU comparison", "GPU 对比"), "spec": ("GPU spec", "GPU 规格"), "explain": ("concept", "概念"),
    "fact_check": ("fact check", "核对说法"), "out_of_scope": ("outside GPU sizing", "不在 GPU 选型范围内"),
}
_METHOD = {"full": ("full fine-tune", "全参微调"), "lora": ("LoRA", "LoRA"), "qlora": ("QLoRA", "QLoRA"),
           "pretrain": ("pre-training", "预训练"), "inference": ("inference", "推理")}


def model_label(model_id: str | None, catalog) -> str | None:
    """'Qwen2.5-7B' for a catalog model (its Hub repo name), '70B' for a bare size."""
    if not model_id:
        return None
    try:
        rec, note = catalog.model(model_id)
    except (LookupError, ValueError):
        return model_id
    if note:  # a bare size sized as a generic decoder
        return model_id.upper()
    return rec.hf_repo.split("/")[-1] if rec.hf_repo else rec.name


def gpu_label(gpu_id: str | None, catalog) -> str | None:
    """'A100 80GB SXM4', 'RTX 4090', 'Ascend 910B (910B2 figures)'."""
    if not gpu_id:
        return None
    try:
        name = catalog.gpu(gpu_id)[0].name
    except LookupError:
        return gpu_id
    for prefix in ("NVIDIA GeForce ", "NVIDIA HGX ", "NVIDIA ", "AMD Instinct ", "AMD ", "Huawei "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _tokens(n: float) -> str:
    for unit, size in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:g}{unit}"
    return f"{n:g}"


def _money(v: float, currency: str | None) -> str:
    return ("¥" if currency == "CNY" else "$") + f"{v:,.2f}".rstrip("0").rstrip(".")


def parts(req: Request, catalog, zh: bool) -> list[str]:
    """The stated inputs, each as a short phrase."""
    i = 1 if zh else 0
    out: list[str] = []
    if req.model:
        out.append(model_label(req.model, catalog) + (f" ({req.checkpoint_format})" if req.checkpoint_format else ""))
    if len(req.models) > 1:
        out[-1:] = [" / ".join(model_label(m, catalog) for m in req.models)]
    if req.methods:
        out.append(" / ".join(_METHOD[m][i] for m in req.methods))
    elif req.method and req.method != "inference":
        out.append(_METHOD[req.method][i])
    gpus = req.gpus if len(req.gpus) > 1 else ([req.gpu] if req.gpu else [])
    if gpus:
        label = " / ".join(gpu_label(g, catalog) for g in gpus)
        if req.nodes and req.gpus_per_node:
            out.append(f"{req.nodes}×{req.gpus_per_node} {label}" + (f"（共 {req.num_gpus} 张）" if zh else f" ({req.num_gpus} GPUs)"))
        else:
            out.append(f"{req.num_gpus}× {label}" if req.num_gpus else label)
    elif req.num_gpus:
        out.append(f"{req.num_gpus} 张卡" if zh else f"{req.num_gpus} GPU" + ("s" if req.num_gpus != 1 else ""))
    if req.unknown_gpu:
        out.append(f"{req.unknown_gpu}（不在 GPU 表中）" if zh else f"{req.unknown_gpu} (not in the GPU table)")
    labels = {
        "interconnect": ("{}", "{}"), "precision": ("{}", "{}"), "kv_dtype": ("KV {}", "KV {}"),
        "seq_len": ("seq {}", "序列 {}"), "context": ("context {}", "上下文 {}"), "prompt_len": ("prompt {}", "输入 {}"),
        "output_len": ("output {}", "输出 {}"), "micro_batch": ("micro-batch {}", "micro-batch {}"),
        "global_batch": ("global batch {}", "global batch {}"), "batch": ("batch {}", "batch {}"),
        "concurrent_users": ("{} concurrent users", "{} 并发"), "requests_per_s": ("{} req/s", "{} QPS"),
        "engine": ("{}", "{}"), "epochs": ("{} epochs", "{} 个 epoch"), "optimizer": ("{}", "{}"),
        "zero": ("ZeRO-{}", "ZeRO-{}"), "offload": ("offload {}", "卸载 {}"), "recompute": ("recompute {}", "重计算 {}"),
        "tensor_parallel": ("TP{}", "TP{}"), "pipeline_parallel": ("PP{}", "PP{}"),
        "lora_rank": ("rank {}", "rank {}"), "utilization": ("{:.0%} utilization", "利用率 {:.0%}"),
        "hours_per_day": ("{:g} h/day", "每天 {:g} 小时"), "mfu": ("MFU {:.0%}", "MFU {:.0%}"),
        "ttft_s": ("TTFT ≤ {:g} s", "首 token ≤ {:g} 秒"), "itl_ms": ("ITL ≤ {:g} ms", "每 token ≤ {:g} 毫秒"),
        "tokens_per_s_per_user": ("≥ {:g} tokens/s per user", "每用户 ≥ {:g} token/秒"),
        "electricity_per_kwh": ("electricity {:g}/kWh", "电价 {:g}/度"),
        "daily_active_users": ("{:,} daily users", "日活 {:,}"),
        "team_size": ("a team of {:,}", "团队 {:,} 人"),
        "resale_fraction": ("resale {:.0%}", "残值 {:.0%}"),
        "rent_committed": ("reserved term", "包期租用"),
        "api_model": ("API {}", "API {}"), "samples": ("{:,} samples", "{:,} 条样本"),
        "gpu_power_w": ("{:g} W per GPU", "每卡 {:g} W"), "server_overhead": ("+{:.0%} for the server", "整机另加 {:.0%}"),
        "device_kind": ("a {}", "设备：{}"),
        "long_documents": ("long inputs", "长输入"),
        "quiet": ("quiet", "安静低功耗"),
        "rack_units": ("{}U of rack space", "机柜 {}U"),
        "checkpoint_stall": ("checkpoint stalls {:.1%}", "checkpoint 阻塞 {:.1%}"),
        "time_lost": ("{:.0%} of time lost to failures", "故障损失 {:.0%}"),
    }
    for key, (en, cn) in labels.items():
        v = getattr(req, key)
        if v is not None and v is not False:  # (a flag set false, 'on demand', is no term to restate)
            out.append((cn if zh else en).format(v))
    if req.tokens:
        out.append(f"{_tokens(req.tokens)} tokens")
    if req.period_hours:
        h = req.period_hours
        took = (f"{h * 60:,.0f} 分钟" if zh else f"{h * 60:,.0f} min") if h < 1 else \
            (f"{h:,.3g} 小时" if zh else f"{h:,.3g} h") if h < 100 else (f"{h:,.0f} 小时" if zh else f"{h:,.0f} h")
        if req.measured_step_s:  # ('2.4 s/step'): the user's own step, not a period
            took = (f"实测每步 {req.measured_step_s:g} 秒" if zh else f"measured {req.measured_step_s:g} s per step")
        elif req.measured_tokens:  # ('300M tokens took 6.5 h'): the user's own earlier run, not the job's length
            took = (f"实测：{_tokens(req.measured_tokens)} token 用了 {took}" if zh else
                    f"measured: {_tokens(req.measured_tokens)} tokens took {took}")
        out.append(took)
    elif req.measured_step_s:
        out.append(f"实测每步 {req.measured_step_s:g} 秒" if zh else f"measured {req.measured_step_s:g} s per step")
    if req.price_per_gpu_hour:
        out.append(_money(req.price_per_gpu_hour, req.currency) + ("/卡时" if zh else "/GPU-h"))
    if req.gpu_rental_prices:
        out.append(("你的租价 " if zh else "your prices ") + ", ".join(
            f"{gpu_label(g, catalog) or g} {_money(p, req.currency)}" for g, p in req.gpu_rental_prices.items()))
    if req.purchase_price:
        out.append(_money(req.purchase_price, req.currency) + ("/卡" if zh else " per GPU"))
    if req.purchase_price_per_server:
        out.append(_money(req.purchase_price_per_server, req.currency) + ("/台" if zh else " per server"))
    if req.used:
        out.append("二手" if zh else "used")
    if req.budget:
        out.append(("预算 " if zh else "budget ") + _money(req.budget, req.currency))
    if req.deadline_hours:
        out.append((f"{req.deadline_hours:,.0f} 小时内" if zh else f"within {req.deadline_hours:,.0f} h"))
    return out


def restate(req: Request, catalog, assumed: list[str]) -> str:
    """The one-line restatement that opens every answer."""
    zh = req.lang == "zh"
    task = _TASK[req.intent][1 if zh else 0]
    line = ("理解为：" if zh else "Understood: ") + task
    stated = parts(req, catalog, zh)
    if stated:
        line += ("：" if zh else ": ") + " · ".join(stated)
    if assumed:
        line += ("；默认：" if zh else "; assumed: ") + ("、" if zh else ", ").join(assumed)
    return line


_ASK = {
    "model": ("Which model (or size)?", "是哪个模型（或多大参数）？", ["Llama-3.1-8B", "Qwen2.5-7B", "70B"]),
    "tokens": ("How many training tokens (dataset tokens × epochs)?", "训练数据有多少 token（数据量 × epoch）？",
               ["1B tokens", "10B tokens", "1T tokens"]),
    "period_hours": ("For how long (hours, days, months)?", "用多长时间（小时、天、月）？", ["3 days", "1 month", "1 year"]),
    "gpu": ("Which GPU?", "哪种 GPU？", ["A100 80GB", "H100", "RTX 4090"]),
    "gpus": ("Which GPUs should I compare?", "要对比哪几种 GPU？", ["A100 vs H100", "H20 vs H100", "H200 vs 910B"]),
    "intent": ("Do you mean fine-tuning memory or running it (inference)?", "是问微调显存，还是推理部署？",
               ["fine-tune it with LoRA", "run it for inference"]),
}
_ZH_SUGGEST = {"1B tokens": "10亿 token", "10B tokens": "100亿 token", "1T tokens": "1万亿 token",
               "3 days": "3天", "1 month": "1个月", "1 year": "1年", "fine-tune it with LoRA": "用 LoRA 微调",
               "run it for inference": "推理部署"}


def clarification(req: Request, missing: list[str], catalog) -> Clarification:
    """The question back: what is missing, in the user's language, with completions to send as they are."""
    zh = req.lang == "zh"
    asks = [_ASK[m][1 if zh else 0] for m in missing]
    known = parts(req, catalog, zh)
    head = (("已知：" + " · ".join(known) + "。") if zh else ("So far: " + " · ".join(known) + ". ")) if known else ""
    suggestions = [(_ZH_SUGGEST.get(s, s) if zh else s) for s in _ASK[missing[0]][2]]
    return Clarification(missing=missing, question=head + " ".join(asks), suggestions=suggestions[:4])


# How a stated input is named to the user when a tool could not use it (the Request field is the machine name; the
# Answer's `ignored` list keeps 'field=value: why' for the API).
_FIELD_LABELS = {
    "power_limit_w": ("power available", "可用功率", " W"), "rack_units": ("rack space", "机柜空间", "U"), "power_kw": ("power draw", "功耗", " kW"),
    "gpu_power_w": ("power per GPU", "每卡功耗", " W"), "server_overhead": ("server overhead", "整机额外功耗", ""),
    "price_per_gpu_hour": ("price per GPU-hour", "每卡每小时价格", ""), "purchase_price": ("purchase price", "购买价格", ""),
    "purchase_price_per_server": ("server price", "整机价格", ""), "rent_per_month": ("monthly rent", "月租", ""),
    "hosting_per_month": ("hosting per month", "每月托管费", ""), "electricity_per_kwh": ("electricity price",
                                                                                          "电价", "/kWh"),
    "budget": ("budget", "预算", ""), "num_gpus": ("GPU count", "卡数", ""), "gpu": ("GPU", "GPU", ""),
    "gpus": ("GPUs", "GPU", ""), "model": ("model", "模型", ""), "precision": ("precision", "精度", ""),
    "seq_len": ("sequence length", "序列长度", ""), "context": ("context", "上下文", " tokens"),
    "prompt_len": ("prompt length", "输入长度", " tokens"), "output_len": ("output length", "输出长度", " tokens"),
    "batch": ("batch", "batch", ""), "micro_batch": ("micro-batch", "micro batch", ""),
    "global_batch": ("global batch", "global batch", ""), "concurrent_users": ("concurrent users", "并发用户", ""),
    "requests_per_s": ("requests per second", "每秒请求数", ""), "tokens": ("training tokens", "训练 token 数", ""),
    "epochs": ("epochs", "epoch 数", ""), "zero": ("ZeRO stage", "ZeRO 阶段", ""), "offload": ("offload", "offload", ""),
    "lora_rank": ("LoRA rank", "LoRA rank", ""), "mfu": ("MFU", "MFU", ""), "ram_gb": ("system RAM", "内存", " GB"),
    "utilization": ("utilization", "利用率", ""), "period_hours": ("duration", "时长", " h"),
    "hours_per_day": ("hours a day", "每天小时数", " h"), "deadline_hours": ("deadline", "期限", " h"),
    "ttft_s": ("TTFT target", "TTFT 目标", " s"), "itl_ms": ("ITL target", "ITL 目标", " ms"),
    "tokens_per_s_per_user": ("tokens/s per user", "每用户 tokens/s", ""), "kv_dtype": ("KV cache type", "KV 类型", ""),
    "tensor_parallel": ("tensor parallel", "张量并行", ""), "pipeline_parallel": ("pipeline parallel", "流水线并行", ""),
    "interconnect": ("interconnect", "互联", ""), "nodes": ("nodes", "节点数", ""),
    "gpus_per_node": ("GPUs per node", "每节点卡数", ""), "engine": ("engine", "推理引擎", ""),
    "tokens_per_day": ("tokens a day", "每天 token 数", ""), "api_model": ("API", "API", ""), "samples": ("samples", "样本数", ""), "depreciation_years": ("depreciation", "折旧年限", " years"),
    "only_vendors": ("vendors allowed", "限定厂商", ""), "exclude_vendors": ("vendors ruled out", "排除的厂商", ""),
    "exclude_gpus": ("cards ruled out", "排除的卡", ""), "optimizer": ("optimizer", "优化器", ""),
    "recompute": ("activation recompute", "重计算", ""), "daily_active_users": ("daily users", "日活", ""),
}


def _value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:,.0f}" if v >= 100 and v == int(v) else f"{v:,.4g}"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v)
    return str(v)


def ignored_line(entry: str, zh: bool = False) -> str:
    """'power_limit_w=5000.0: why' as the user reads it: 'power available 5,000 W: why'."""
    head, _, why = entry.partition(": ")
    name, _, raw = head.partition("=")
    label = _FIELD_LABELS.get(name)
    try:
        value = float(raw)
    except ValueError:
        value = raw
    shown = _value(value)
    if label is None:
        return f"{name.replace('_', ' ')} {shown}: {why}" if why else entry
    return f"{label[1] if zh else label[0]} {shown}{label[2]}" + (f": {why}" if why else "")
