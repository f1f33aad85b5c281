"""The web UI's own words in Chinese and English (answers carry their own language)."""
from __future__ import annotations

from assistant.compose import phrase

TEXT: dict[str, dict[str, str]] = {
    "title": {"en": "gpu-advisor: computed answers to GPU sizing questions for LLMs",
              "zh": "gpu-advisor：大模型 GPU 选型，答案靠计算而不是猜"},
    "subtitle": {"en": "Memory, GPU count, time and cost, with the breakdown, the assumptions and the sources. "
                       "Memory is in decimal GB (1e9 bytes); throughput is dense (no sparsity).",
                 "zh": "显存、卡数、时间与成本：给出构成、假设与出处。显存单位为十进制 GB（1e9 字节）；算力为稠密（不含稀疏）值。"},
    "ui_lang": {"en": "Interface language", "zh": "界面语言"},
    "question": {"en": "Your question (Chinese or English)", "zh": "你的问题（中文或英文）"},
    "placeholder": {"en": "e.g. Is one A100 80GB enough to fine-tune a 70B model?", "zh": "例如：A100够不够微调70B？"},
    "send": {"en": "Ask", "zh": "提问"},
    "new_chat": {"en": "New conversation", "zh": "新对话"},
    "examples": {"en": "Examples (the source article's FAQ among them)", "zh": "示例问题（含原文 FAQ）"},
    "verdict": {"en": "Verdict", "zh": "结论"},
    "no_verdict": {"en": "Ask a question: the verdict, the memory chart and the options appear here.",
                   "zh": "提一个问题：结论、显存构成图和可选方案会显示在这里。"},
    "chart": {"en": "Memory per GPU by component (GB), per option", "zh": "每卡显存构成（GB），按方案"},
    "options": {"en": "Options", "zh": "可选方案"},
    "tool_calls": {"en": "Tool calls (every number comes from one)", "zh": "工具调用（每个数字都来自这里）"},
    "citations": {"en": "Sources", "zh": "出处"},
    "fits": {"en": "fits", "zh": "放得下"},
    "does_not_fit": {"en": "does not fit", "zh": "放不下"},
    "col_option": {"en": "option", "zh": "方案"},
    "col_fits": {"en": "fits", "zh": "放得下"},
    "col_per_gpu": {"en": "GB per GPU", "zh": "每卡 GB"},
    "col_min": {"en": "min GPUs", "zh": "最少卡数"},
    "yes": {"en": "yes", "zh": "是"},
    "no": {"en": "no", "zh": "否"},
    "usable": {"en": "usable on the GPU", "zh": "GPU 可用显存"},
    "calc_intro": {"en": "Change any field: the breakdown, the chart and the command line follow.",
                   "zh": "修改任一参数，显存构成、图表和命令行会随之更新。"},
    "mode": {"en": "What to size", "zh": "估算对象"},
    "mode_train": {"en": "training / fine-tuning", "zh": "训练 / 微调"},
    "mode_infer": {"en": "inference", "zh": "推理"},
    "mode_serve": {"en": "serving (users, latency)", "zh": "服务（并发、延迟）"},
    "users": {"en": "concurrent users", "zh": "并发用户数"},
    "prompt_len": {"en": "prompt tokens", "zh": "输入 token 数"},
    "output_len": {"en": "output tokens", "zh": "输出 token 数"},
    "ttft_target": {"en": "time to first token target (s; blank: none)", "zh": "首 token 时间目标（秒；留空 = 不限）"},
    "itl_target": {"en": "inter-token latency target (ms; blank: none)", "zh": "每 token 间隔目标（毫秒；留空 = 不限）"},
    "model": {"en": "Model (catalog id, HF repo name or a size like 70b)", "zh": "模型（目录 id、HF 仓库名或 70b 这样的规模）"},
    "method": {"en": "Method", "zh": "方法"},
    "gpu": {"en": "GPU", "zh": "GPU"},
    "num_gpus": {"en": "Number of GPUs", "zh": "卡数"},
    "seq_len": {"en": "Sequence length (tokens)", "zh": "序列长度（token）"},
    "micro_batch": {"en": "Micro-batch per GPU", "zh": "每卡 micro-batch"},
    "train_precision": {"en": "Training precision", "zh": "训练精度"},
    "zero": {"en": "ZeRO stage (auto = 3 with more than one GPU)", "zh": "ZeRO 阶段（auto：多卡时为 3）"},
    "offload": {"en": "CPU offload", "zh": "CPU 卸载"},
    "infer_precision": {"en": "Weight format", "zh": "权重格式"},
    "context": {"en": "Context per sequence (tokens)", "zh": "每条序列上下文（token）"},
    "batch": {"en": "Concurrent sequences", "zh": "并发序列数"},
    "engine": {"en": "Engine", "zh": "推理引擎"},
    "cli": {"en": "The same estimate on the command line", "zh": "在命令行得到同样的估算"},
    "open_calc": {"en": "Open in the calculator (this configuration, ready to change)", "zh": "在计算器中打开（带入这个配置，可继续修改）"},
    "launch": {"en": "Launch configuration to paste (DeepSpeed JSON, accelerate, torchrun; or the serving engine's line)",
               "zh": "可直接粘贴的启动配置（DeepSpeed JSON、accelerate、torchrun；或推理引擎的启动命令）"},
    "breakdown": {"en": "Breakdown and assumptions", "zh": "构成与假设"},
    "gpus_intro": {"en": "Throughput columns are DENSE (NVIDIA's datasheet 'with sparsity' figures halved). "
                         "Memory is decimal GB as marketed. Click a column header to sort; type in the search box to filter.",
                   "zh": "算力列均为稠密值（NVIDIA 数据手册中“含稀疏”的数字已减半）。显存为厂商标称的十进制 GB。"
                         "点击表头排序，在搜索框中筛选。"},
    "vendor": {"en": "Vendor", "zh": "厂商"},
    "min_memory": {"en": "At least this much memory (GB)", "zh": "显存不少于（GB）"},
    "compare": {"en": "Compare GPUs side by side (pick two or more)", "zh": "并排比较（选两款或更多）"},
    "compare_hint": {"en": "Pick at least two GPUs to compare.", "zh": "请至少选择两款 GPU 进行比较。"},
    "compare_chart": {"en": "Dense BF16 TFLOPS and memory bandwidth (TB/s)", "zh": "稠密 BF16 TFLOPS 与显存带宽（TB/s）"},
    "backend": {"en": "Backend", "zh": "后端"},
    "check": {"en": "Check health", "zh": "检查状态"},
    "prices": {"en": "Rental price overrides for this browser session ($ or 元 per GPU-hour)",
               "zh": "本会话的租用价格覆盖（元/卡·时 或 $/卡·时）"},
    "price": {"en": "price per GPU-hour", "zh": "每卡·时价格"},
    "currency": {"en": "currency", "zh": "币种"},
    "add_price": {"en": "Use this price", "zh": "使用此价格"},
    "clear_prices": {"en": "Clear overrides", "zh": "清除覆盖"},
    "no_prices": {"en": "No overrides: answers use the shipped price table (estimates with sources and dates).",
                  "zh": "未覆盖：回答使用内置价格表（带出处与日期的估计值）。"},
    "data": {"en": "Data directory and index", "zh": "数据目录与索引"},
    "check_index": {"en": "Check index (builds the dense store on first use)", "zh": "检查索引（首次使用会构建向量库）"},
}


def t(lang: str, key: str) -> str:
    return phrase(TEXT, lang, key)


def browser_lang_js() -> str:
    """JS for a load event: 'zh' when the browser prefers Chinese, else 'en'."""
    first = "((navigator.languages && navigator.languages[0]) || navigator.language || 'en')"
    return f"() => {first}.toLowerCase().startsWith('zh') ? 'zh' : 'en'"
