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
    "tt_ratio": {"en": "{a} takes **{ratio:.1f}x** as long as {b} (not 20-30% longer).",
                 "zh": "{a} 所需时间是 {b} 的 **{ratio:.1f} 倍**（不是只多 20%–30%）。"},
    "tt_cost": {"en": "Renting on demand: about ${cost:,.0f} (${low:,.0f}-${high:,.0f}; ${rate:.2f} per GPU-hour typical, "
                      "price-table estimate).",
                "zh": "按需租用约 ${cost:,.0f}（${low:,.0f}-${high:,.0f}；典型 ${rate:.2f}/卡时，价格表估计）。"},
    "tt_cost_given": {"en": "Renting on demand: about ${cost:,.0f} at your price of ${rate:.2f} per GPU-hour (this session's override).",
                      "zh": "按需租用约 ${cost:,.0f}（按你给的 ${rate:.2f}/卡时，本会话覆盖价）。"},
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
}


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
