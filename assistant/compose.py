"""Words of the answers in Chinese and English, and Markdown tables. Numbers are filled in, never written here."""
from __future__ import annotations

PHRASES: dict[str, dict[str, str]] = {
    "tm_head": {"en": "**{model} on {n} x {gpu}:**", "zh": "**{model}，{n} 张 {gpu}：**"},
    "tm_fits": {"en": "{method}: **fits**, about {gb:.1f} GB per GPU", "zh": "{method}：**放得下**，每卡约 {gb:.1f} GB"},
    "tm_nofit_any": {"en": "{method}: **does not fit** on {n} GPU(s) ({gb:.1f} GB per GPU), and no GPU count fixes it: the "
                           "per-GPU terms that do not shrink with more GPUs are too large (shorten the sequence, lower the "
                           "micro-batch, or use tensor parallelism)",
                     "zh": "{method}：{n} 张卡**放不下**（每卡 {gb:.1f} GB），加卡也解决不了：不随卡数减少的部分太大"
                           "（缩短序列、减小 micro-batch，或用张量并行）"},
    "tm_nofit_unsharded": {"en": "{method}: **does not fit** on {n} GPU(s) ({gb:.1f} GB per GPU): without ZeRO-3/FSDP "
                                 "sharding every GPU holds all the weights (ZeRO-1/2 split only the optimizer states and "
                                 "gradients), so more GPUs add speed, not room; shard them (ZeRO-3/FSDP over 2+ GPUs), "
                                 "offload the optimizer, or use an 8-bit optimizer",
                           "zh": "{method}：{n} 张卡**放不下**（每卡 {gb:.1f} GB）：不用 ZeRO-3/FSDP 切分时每张卡都存全部权重"
                                 "（ZeRO-1/2 只切优化器状态和梯度），加卡只加速度不加空间；要么切分（2 张以上 ZeRO-3/FSDP），"
                                 "要么把优化器卸载到 CPU，或用 8-bit 优化器"},
    "tm_nofit": {"en": "{method}: **does not fit** on {n} GPU(s) ({gb:.1f} GB per GPU); it needs at least {min} GPUs",
                 "zh": "{method}：{n} 张卡**放不下**（每卡 {gb:.1f} GB），至少需要 {min} 张"},
    "tm_offload": {"en": "full fine-tune on 8 GPUs with the optimizer offloaded to CPU: {gb:.1f} GB per GPU (fits: {fits}), "
                         "host RAM {host:.2f} TB",
                   "zh": "全参微调用 8 张卡并把优化器卸载到 CPU：每卡 {gb:.1f} GB（放得下：{fits}），需要主机内存 {host:.2f} TB"},
    "full": {"en": "FULL", "zh": "全参"}, "yes": {"en": "yes", "zh": "是"}, "no": {"en": "no", "zh": "否"},
    "method": {"en": "method", "zh": "方法"}, "fits_q": {"en": "fits", "zh": "放得下"},
    "min_gpus": {"en": "min GPUs", "zh": "最少卡数"}, "hours": {"en": "hours", "zh": "小时"}, "why": {"en": "why", "zh": "原因"},
    "breakdown": {"en": "Breakdown per GPU ({method}):", "zh": "每卡显存构成（{method}）："},
    "assumptions": {"en": "Assumptions", "zh": "假设"}, "sources": {"en": "Sources", "zh": "来源"},
    "assume_one": {"en": "one GPU (the question names no count)", "zh": "按单卡计算（问题没有给出卡数）"},
    "assume_tokens": {"en": "{tokens:.3g} training tokens (not given; the ratio between GPUs does not depend on it)",
                      "zh": "按 {tokens:.3g} 个训练 token 计算（未给出；不同 GPU 之间的倍数与它无关）"},
    "tt_head": {"en": "**{model}, {method}, {tokens:.3g} tokens on {n} GPUs:**",
                "zh": "**{model}，{method}，{tokens:.3g} 个 token，{n} 张卡：**"},
    "tt_ratio": {"en": "{a} takes **{ratio:.1f}x** as long as {b}{claim}.",
                 "zh": "{a} 所需时间是 {b} 的 **{ratio:.1f} 倍**{claim}。"},
    "tt_cost": {"en": "Renting on demand: about {cost} ({low}-{high}; {rate} per GPU-hour typical, price-table estimate).",
                "zh": "按需租用约 {cost}（{low} 至 {high}；典型 {rate}/卡·时，价格表估计）。"},
    "tt_cost_given": {"en": "Renting on demand: about {cost} at your price of {rate} per GPU-hour (this session's override).",
                      "zh": "按需租用约 {cost}（按你给的 {rate}/卡·时，本会话覆盖价）。"},
    "fc_right": {"en": "**The claim holds**, by the numbers below.", "zh": "**这个说法成立**，依据如下。"},
    "fc_wrong": {"en": "**The claim is wrong**, by the numbers below.", "zh": "**这个说法不对**，计算如下。"},
    "fc_time": {"en": "**The claim is wrong**: dense BF16 is 989 vs 312 TFLOPS, and the computed time ratio is below.",
                "zh": "**这个说法不对**：稠密 BF16 算力是 989 对 312 TFLOPS，按同一任务计算的时间倍数如下。"},
    "fc_para": {"en": "**{n} checkable claims; {wrong} are wrong or misleading:**",
                "zh": "**可核对的说法 {n} 条，其中 {wrong} 条错误或有误导：**"},
    "verdict": {"en": "verdict", "zh": "结论"}, "v_right": {"en": "right", "zh": "正确"},
    "v_wrong": {"en": "wrong", "zh": "错误"}, "v_misleading": {"en": "misleading", "zh": "有误导"}, "claim": {"en": "claim", "zh": "说法"},
    "correct": {"en": "computed / correct", "zh": "计算结果 / 正确数字"},
    "speed_head": {"en": "**{model} on {n} x {gpu}, {ctx}-token prompts** (roofline estimate):",
                   "zh": "**{model}，{n} 张 {gpu}，提示长度 {ctx}**（roofline 估算）："},
    "ttft": {"en": "time to first token", "zh": "首 token 延迟"}, "per_seq": {"en": "decode per sequence", "zh": "单序列解码"},
    "total": {"en": "decode, whole batch", "zh": "整批解码"}, "max_batch": {"en": "most sequences that fit", "zh": "最多并发序列"},
    "cmp_head": {"en": "**{gpus} side by side** (dense throughput, from the GPU table):",
                 "zh": "**{gpus} 对比**（稠密算力，来自 GPU 规格表）："},
    "cmp_note": {"en": "Beyond specs: CUDA (NVIDIA) vs CANN/MindSpore (Ascend) vs ROCm (AMD) decides how much porting "
                       "your code needs; see the sources.",
                 "zh": "规格之外，软件生态（NVIDIA 的 CUDA、昇腾的 CANN/MindSpore、AMD 的 ROCm）决定代码迁移成本，详见来源。"},
    "cmp_by_job": {"en": "**Which card for which job** (each job is bounded by one figure):",
                   "zh": "**按任务选卡**（每类任务由一个指标决定）："},
    "job_training": {"en": "training and prefill (compute-bound, dense BF16 TFLOPS)", "zh": "训练与预填充（看算力，稠密 BF16 TFLOPS）"},
    "job_decode": {"en": "inference decode (bandwidth-bound, GB/s)", "zh": "推理解码（看显存带宽，GB/s）"},
    "job_memory": {"en": "largest model per card (memory, GB)", "zh": "单卡能放的模型大小（显存，GB）"},
    "job_scale_out": {"en": "multi-GPU scaling (GPU-to-GPU link, GB/s)", "zh": "多卡扩展（卡间互联，GB/s）"},
    "job_fp8": {"en": "FP8 training and inference (dense FP8 TFLOPS)", "zh": "FP8 训练与推理（稠密 FP8 TFLOPS）"},
    "job_line": {"en": "{job}: **{winner}**, {ratio:.2f}× {runner} ({values})",
                 "zh": "{job}：**{winner}**，是 {runner} 的 {ratio:.2f} 倍（{values}）"},
    "job_prefill": {"en": "prefill, i.e. time to first token (compute-bound, dense BF16 TFLOPS)",
                    "zh": "预填充即首 token 时间（看算力，稠密 BF16 TFLOPS）"},
    "rec_pick": {"en": "**Pick: {n}× {gpu}**, {cost} ({why}). Why, card against card:",
                 "zh": "**选 {n} 张 {gpu}**，{cost}（{why}）。逐项对比："},
    "job_tie": {"en": "{job}: a tie between {winner} and {runner} ({values})", "zh": "{job}：{winner} 与 {runner} 持平（{values}）"},
    "cmp_market": {"en": "Availability (the GPU table's market notes):", "zh": "供货与出口管制（GPU 规格表的市场说明）："},
    "spec_head": {"en": "**{name}** (dense figures):", "zh": "**{name}** 规格（稠密算力）："},
    "im_fits": {"en": "**{model} fits on {n} x {gpu}** for inference at {ctx} tokens: {gb:.1f} GB per GPU.",
                "zh": "**{model} 可以在 {n} 张 {gpu} 上推理**（上下文 {ctx}）：每卡 {gb:.1f} GB。"},
    "im_nofit": {"en": "**{model} does not fit on {n} x {gpu}** at {ctx} tokens ({gb:.1f} GB per GPU); "
                       "it needs at least {min} GPUs.",
                 "zh": "**{model} 在 {n} 张 {gpu} 上放不下**（上下文 {ctx}，每卡 {gb:.1f} GB），至少需要 {min} 张。"},
    "rec_head": {"en": "**GPU options for {model} ({task})**, cheapest first:", "zh": "**{model}（{task}）的 GPU 选项**，按成本排序："},
    "explain_head": {"en": "From the reference notes:", "zh": "参考资料里的说明："},
    "no_sources": {"en": "No passage in the knowledge base matches; try naming the concept (ZeRO-3, KV cache, BF16).",
                   "zh": "知识库里没有找到相关内容，可以换个说法（如 ZeRO-3、KV cache、BF16）。"},
    "oos": {"en": "I size GPUs for LLMs: memory, GPU count, training time, inference speed, cost, and GPU comparisons. "
                  "Try: \"Is one A100 80GB enough to fine-tune a 70B model?\"",
            "zh": "我负责大模型的 GPU 选型：显存、卡数、训练时间、推理速度、成本和 GPU 对比。可以问我：“A100够不够微调70B？”"},
    "unknown": {"en": "I don't know that name: {msg}", "zh": "没有找到这个名称：{msg}"},
    "bad_input": {"en": "I can't compute that: {msg}", "zh": "无法计算：{msg}"},
    "empty": {"en": "The message is empty. Ask, for example: \"How many H100s to fine-tune Llama 3.1 70B?\"",
              "zh": "消息是空的。可以这样问：“全参微调 Llama 3.1 70B 要几张 H100？”"},
    "internal_error": {"en": "Something went wrong on my side while answering this (it is logged; your message is kept). "
                             "Try splitting it into one question per message, e.g. the model, the GPUs and the one "
                             "figure you need.",
                       "zh": "回答这条消息时我这边出错了（已记录，你的消息没有丢）。可以把它拆成每条一个问题再试，比如写明模型、卡和你要的那一个数。"},
}


# GPU table fields as a reader sees them (compare tables)
FIELD_LABELS: dict[str, dict[str, str]] = {
    "memory_gb": {"en": "memory (GB, decimal)", "zh": "显存（GB，十进制）"},
    "memory_type": {"en": "memory type", "zh": "显存类型"},
    "memory_bandwidth_gbps": {"en": "memory bandwidth (GB/s)", "zh": "显存带宽（GB/s）"},
    "bf16_dense_tflops": {"en": "BF16 dense TFLOPS", "zh": "BF16 稠密 TFLOPS"},
    "fp16_dense_tflops": {"en": "FP16 dense TFLOPS", "zh": "FP16 稠密 TFLOPS"},
    "fp8_dense_tflops": {"en": "FP8 dense TFLOPS", "zh": "FP8 稠密 TFLOPS"},
    "int8_dense_tops": {"en": "INT8 dense TOPS", "zh": "INT8 稠密 TOPS"},
    "nvlink_gbps": {"en": "GPU-to-GPU link (GB/s, bidirectional)", "zh": "卡间互联（GB/s，双向）"},
    "tdp_w": {"en": "power (TDP, W)", "zh": "功耗（TDP，W）"},
    "source_kind": {"en": "source", "zh": "数据来源类型"},
    "as_of": {"en": "as of", "zh": "数据日期"},
    "interconnect": {"en": "interconnect", "zh": "互联"},
    "release_year": {"en": "released", "zh": "发布年份"},
    "vendor": {"en": "vendor", "zh": "厂商"},
    "form_factor": {"en": "form factor", "zh": "形态"},
    "fp32_tflops": {"en": "FP32 (non-tensor) TFLOPS", "zh": "FP32（非张量核）TFLOPS"},
    "name": {"en": "name", "zh": "名称"},
    "notes": {"en": "notes", "zh": "说明"},
    "field": {"en": "field", "zh": "字段"},
}


def field_label(lang: str, field: str) -> str:
    return FIELD_LABELS[field].get(lang, FIELD_LABELS[field]["en"]) if field in FIELD_LABELS else field


def money(lang: str, usd: float, digits: int = 0) -> str:
    """A USD amount as an answer shows it: '$1,234' in English; in Chinese yuan first, dollars beside: '¥8,885（$1,234）'
    at tools.cost.DEFAULT_CNY_PER_USD (the answer states the rate and its date: FX_NOTE)."""
    from tools.cost import DEFAULT_CNY_PER_USD

    usd_text = f"${usd:,.{digits}f}"
    return f"¥{usd * DEFAULT_CNY_PER_USD:,.{digits}f}（{usd_text}）" if lang == "zh" else usd_text


def fx_note(lang: str) -> str:
    """The exchange rate behind money(), with its source and date, in the answer's language."""
    from tools.cost import CNY_PER_USD_AS_OF, CNY_PER_USD_SOURCE, CNY_PER_USD_SOURCE_ZH, DEFAULT_CNY_PER_USD

    if lang == "zh":
        return (f"人民币金额按 {DEFAULT_CNY_PER_USD:g} 元/美元换算（{CNY_PER_USD_SOURCE_ZH}；设定于 {CNY_PER_USD_AS_OF}）；"
                "价格可按 元/卡·时 或 $/卡·时 覆盖")
    return f"CNY at {DEFAULT_CNY_PER_USD:g} per USD ({CNY_PER_USD_SOURCE}; as of {CNY_PER_USD_AS_OF})"


def job_line(lang: str, pick, job: str | None = None) -> str:
    """One knowledge.lookups.JobPick as a sentence: the card ahead for the job, by how much (a tie said as one)."""
    return T(lang, "job_tie" if pick.ratio <= 1.0 else "job_line", job=job or T(lang, f"job_{pick.job}"),
             winner=pick.winner, runner=pick.runner_up, ratio=pick.ratio,
             values=f"{pick.values[pick.winner]:g} vs {pick.values[pick.runner_up]:g}")


def phrase(table: dict[str, dict[str, str]], lang: str, key: str, **values) -> str:
    """table[key] in `lang` (en fallback), with values filled in."""
    entry = table[key]
    return entry.get(lang, entry["en"]).format(**values)


def T(lang: str, key: str, **values) -> str:
    """The answer phrase `key` in `lang` (en fallback), with values filled in."""
    return phrase(PHRASES, lang, key, **values)


def md_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def premise_md(notes: list[str], zh: bool) -> str:
    """'**Premise check**: …' paragraphs, one per premise the message rests on that the answer corrects."""
    return "".join(("**先更正一个前提**：" if zh else "**Premise check**: ") + p[:1].upper() + p[1:] + ("。" if zh else ".")
                   + "\n\n" for p in notes)
