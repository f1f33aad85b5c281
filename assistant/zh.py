"""Chinese for what the tools write in English: memory component names and assumption lines.

The tools speak English (their JSON keys and assumption strings are a contract); answers in Chinese pass their
words through here. A line no pattern matches stays English: `assumption_zh` returns it unchanged, and
`evals/zh_coverage.py` counts how many lines that leaves.
"""
from __future__ import annotations

import re

from tools.cost import CNY_PER_USD_AS_OF, CNY_PER_USD_SOURCE_ZH

# memory component key (breakdown_gb) -> Chinese name
COMPONENTS_ZH: dict[str, str] = {
    "weights": "权重",
    "gradients": "梯度",
    "master_weights": "FP32 主权重",
    "optimizer_states": "优化器状态",
    "activations": "激活值",
    "logits": "logits（输出层）",
    "kv_cache": "KV cache",
    "cuda_context": "CUDA 上下文",
    "cublas_workspace": "cuBLAS 工作区",
    "nccl_buffers": "NCCL 通信缓冲",
    "allocator_fragmentation": "显存碎片",
    "quant_constants": "量化常数",
    "dequant_buffer": "反量化缓冲",
    "lora_adapter": "LoRA 适配器",
    "lora_optimizer_states": "LoRA 优化器状态",
    "zero3_gather_buffers": "ZeRO-3 收集缓冲",
    "gradient_buckets": "梯度桶（all-reduce）",
    "cuda_graphs": "CUDA graphs",
    "speculative_draft": "投机解码草稿模型",
    "speculative_layers": "投机解码附加层",
    "lora_slots": "多 LoRA 槽位",
}


def component_name(key: str, lang: str) -> str:
    """A breakdown key as a reader sees it: the key itself in English, its Chinese name in zh (the key if none)."""
    return COMPONENTS_ZH.get(key, key) if lang == "zh" else key


_N = r"([\d.,]+(?:e[+-]?\d+)?)"

# (pattern over a whole English assumption line, Chinese template with \1.. groups). Ordered: first match wins.
_ASSUMPTIONS: list[tuple[str, str]] = [
    (rf"{_N} concurrent sequence\(s\) \(--batch\); prefill of {_N} tokens at once \(default: the whole context; --prompt-len\)",
     r"并发 \1 条序列（--batch）；一次预填充 \2 个 token（默认整段上下文；--prompt-len）"),
    (rf"{_N} concurrent sequence\(s\) \(--batch\); prefill of {_N} tokens at once",
     r"并发 \1 条序列（--batch）；一次预填充 \2 个 token"),
    (r"activation recomputation: full \(default; .*\)",
     "激活重计算：full（默认；ZeRO/FSDP 数据并行时框架按整层做检查点；可用 --recompute selective|none 修改）"),
    (rf"activations after Korthikanti et al\. (\d+) \((\d+)-bit\), FlashAttention; logits held at {_N} B per element \((\w+) loss\)",
     r"激活值按 Korthikanti 等 \1 的公式（\2 位），使用 FlashAttention；logits 每元素 \3 字节（\4 的损失实现）"),
    (r"overheads: CUDA context, cuBLAS workspace, NCCL buffers \(>1 GPU\) and allocator fragmentation as named terms",
     "固定开销：CUDA 上下文、cuBLAS 工作区、NCCL 缓冲（多卡时）和显存碎片，分项列出"),
    (r"ZeRO stage (\d) \(default: 3 when more than one GPU or offloading, else 0; --zero\)",
     r"ZeRO 阶段 \1（默认：多卡或卸载时为 3，否则为 0；--zero）"),
    (r"ZeRO stage (\d)", r"ZeRO 阶段 \1"),
    (rf"micro-batch {_N} sequences? per GPU \(default; --micro-batch\)", r"每卡 micro-batch \1 条序列（默认；--micro-batch）"),
    (rf"micro-batch {_N} sequences? per GPU", r"每卡 micro-batch \1 条序列"),
    (r"weights in (.+?),? KV cache in (\w+) \(default\)", r"权重格式 \1，KV cache 为 \2（默认）"),
    (r"weights in (.+?),? KV cache in (\w+)$", r"权重格式 \1，KV cache 为 \2"),
    (r"Hugging Face generate\(\): logits for the last position only .*",
     "Hugging Face generate()：只计算最后一个位置的 logits（新版 transformers）；旧版会为整段提示生成 fp32 logits"),
    (r"LoRA on all linear layers \(default\)", "LoRA 加在所有线性层上（默认）"),
    (r"LoRA rank (\d+) \(default; --lora-rank\)", r"LoRA 秩 \1（默认；--lora-rank）"),
    (r"LoRA rank (\d+)", r"LoRA 秩 \1"),
    (rf"mixed precision AdamW: weights {_N} \+ gradients {_N} \+ master {_N} \+ moments {_N} = {_N} bytes/parameter of model states",
     r"混合精度 AdamW：权重 \1 + 梯度 \2 + 主权重 \3 + 动量 \4 = 每参数 \5 字节的模型状态"),
    (rf"sequence length {_N} tokens \(default; --seq-len\)", r"序列长度 \1 个 token（默认；--seq-len）"),
    (rf"sequence length {_N} tokens", r"序列长度 \1 个 token"),
    # the reader's and planner's refusals (assistant/readers/rules.py, assistant/planner.py)
    (r"a negative token count or context; give a positive number such as 2T, 500B, 1000亿 or 8k",
     "token 数或上下文是负数；请给正数，如 2T、500B、1000亿 或 8k"),
    (r"a length, batch or epoch count of 0; give a positive number such as 4k context or batch 8",
     "长度、batch 或 epoch 为 0；请给正数，如上下文 4k 或 batch 8"),
    (r"a negative number of users or requests; give a load of at least 1 \(e\.g\. '100 users', '5 QPS'\)",
     "用户数或请求数是负数；负载至少为 1（如“100 个用户”“5 QPS”）"),
    (r"a negative number of GPUs; give a count of at least 1 \(e\.g\. '8x H100', '4 张 H100'\)",
     "GPU 数量是负数；至少 1 张（如“8 张 H100”“4 张 H100”）"),
    (r"an MFU \(or utilization\) above 100%: it is the share of the GPUs' peak FLOPS a job achieves, 30-55% for large "
     r"training runs; give e.g. 'MFU 40%'", "MFU（算力利用率）超过 100%：它是作业实际达到的峰值算力占比，大规模训练通常 30-55%；"
     "请给出如“MFU 40%”"),
    (r"a negative count of epochs, samples, hours or steps; give a positive number \(e\.g\. '3 epochs', '100k samples', "
     r"'24 hours'\)", "epoch、样本数、小时或步数是负数；请给正数（如“3 个 epoch”“10 万条样本”“24 小时”）"),
    (r"a card's memory in TB or PB: no GPU holds that \(the largest hold 141-288 GB: H200, B200, MI325X, B300\); give it in "
     r"GB, e\.g\. '80GB'", "单卡显存写成了 TB 或 PB：没有这样的 GPU（最大的单卡是 141-288 GB：H200、B200、MI325X、B300）；请用 GB，如“80GB”"),
    (r"a clock rate \(GHz/MHz\) given as memory: memory is in GB, e\.g\. '16GB'",
     "把频率（GHz/MHz）当成了显存：显存单位是 GB，如“16GB”"),
    (r"a context in bits: a context is counted in tokens, e\.g\. '32k tokens'",
     "上下文写成了 bit：上下文按 token 计，如“32k token”"),
    (r"TP=(\d+) does not work for (.+?): its (\d+) attention heads and (\d+) KV heads must split evenly over the "
     r"tensor-parallel GPUs \(vLLM and SGLang refuse it\); TP sizes that work: (.+?), or (\d+) GPUs as pipeline stages "
     r"\(--pipeline-parallel-size (\d+)\)",
     r"\2 不能用 TP=\1：它的 \3 个注意力头和 \4 个 KV 头必须能被张量并行的卡数整除（vLLM、SGLang 会直接报错）；可用的 TP：\5，"
     r"或者用 \6 张卡做流水线并行（--pipeline-parallel-size \7）"),
    (r"0 GPUs is not a configuration; give at least 1 \(e\.g\. '8x H100', '单卡'\)",
     "0 张卡不是一种配置；至少 1 张（如“8 张 H100”“单卡”）"),
    (rf"{_N} GPUs: dp {_N} x tp {_N} x pp {_N},? ZeRO-(\d) \(the lowest stage whose model states fit each GPU: less "
     rf"traffic than full sharding; --zero\); {_N} tokens per optimizer step \(default: pre-training scale, as published "
     r"runs of this size use\)",
     r"\1 张卡：数据并行 \2 × 张量并行 \3 × 流水并行 \4，ZeRO-\5（模型状态放得进每张卡的最低阶段，通信比完全切分少；--zero）；"
     r"每个优化器步 \6 个 token（默认：预训练规模，与同尺寸的公开训练一致）"),
    (rf"{_N} GPUs: dp {_N} x tp {_N} x pp {_N},? ZeRO-(\d) \(the lowest stage whose model states fit each GPU: less "
     rf"traffic than full sharding; --zero\); {_N} tokens per optimizer step \(default: a fine-tuning batch\)",
     r"\1 张卡：数据并行 \2 × 张量并行 \3 × 流水并行 \4，ZeRO-\5（模型状态放得进每张卡的最低阶段，通信比完全切分少；--zero）；"
     r"每个优化器步 \6 个 token（默认：微调 batch）"),
    (rf"{_N} GPUs: dp {_N} x tp {_N} x pp {_N},? ZeRO-(\d) \(the model states fit each GPU only fully sharded; --zero\); "
     rf"{_N} tokens per optimizer step \(default: (pre-training scale, as published runs of this size use|a fine-tuning batch)\)",
     r"\1 张卡：数据并行 \2 × 张量并行 \3 × 流水并行 \4，ZeRO-\5（模型状态只有完全切分才放得下；--zero）；"
     r"每个优化器步 \6 个 token（默认）"),
    (rf"{_N} GPUs: dp {_N} x tp {_N} x pp {_N},? ZeRO-(\d); {_N} tokens per optimizer step \(default(?:: [^)]*)?\)",
     r"\1 张卡：数据并行 \2 × 张量并行 \3 × 流水并行 \4，ZeRO-\5；每个优化器步 \6 个 token（默认）"),
    (rf"{_N} GPUs: dp {_N} x tp {_N} x pp {_N},? ZeRO-(\d); {_N} tokens per optimizer step",
     r"\1 张卡：数据并行 \2 × 张量并行 \3 × 流水并行 \4，ZeRO-\5；每个优化器步 \6 个 token"),
    (r"vLLM: pre-allocates ([\d.]+) x capacity; activation profile of ([\d,]+) batched tokens; the rest becomes KV-cache blocks",
     r"vLLM：预先占用显存的 \1；按 \2 个批量 token 测算激活；其余全部作为 KV cache 块"),
    (r"recomputation selective \(default\)", "选择性重计算（默认）"),
    (r"recomputation full \(\+2·N·D: the forward runs twice\) \(default\)", "完全重计算（+2·N·D：前向算两遍）（默认）"),
    (rf"vLLM: weights \+ activations fit its {_N} GB budget per GPU; the KV pool holds {_N} tokens = {_N} sequence\(s\) of {_N} tokens",
     r"vLLM：权重与激活在每卡 \1 GB 预算之内；KV 池可容纳 \2 个 token = \3 条 \4 token 的序列"),
    (rf"vLLM: weights \+ activations exceed its {_N} GB budget per GPU: no room for KV cache",
     r"vLLM：权重与激活超出每卡 \1 GB 预算，没有 KV cache 的空间"),
    (rf"FLOPs: (\d+)·N·D \+ causal attention at {_N} tokens/sequence \(default; --seq-len\), N = {_N} (active )?parameters",
     r"计算量：\1·N·D + 因果注意力（每条序列 \2 个 token，默认；--seq-len），N = \3 个\4参数"),
    (rf"FLOPs: (\d+)·N·D \+ causal attention at {_N} tokens/sequence, N = {_N} (active )?parameters",
     r"计算量：\1·N·D + 因果注意力（每条序列 \2 个 token），N = \3 个\4参数"),
    (rf"(\S+): an (\d+)-GPU server price divided by (\d+) \(it includes CPUs, RAM, networking\)",
     r"\1：\2 卡整机价格除以 \3（含 CPU、内存和网络）"),
    (rf"(CNY|USD) prices converted to (CNY|USD) at {_N} CNY/USD \(default, an assumption; --cny-per-usd\)",
     r"\1 价格按 \3 元/美元换算为 \2（默认汇率，" + f"{CNY_PER_USD_SOURCE_ZH}；设定于 {CNY_PER_USD_AS_OF}；--cny-per-usd）"),
    (rf"(CNY|USD) prices converted to (CNY|USD) at {_N} CNY/USD", r"\1 价格按 \3 元/美元换算为 \2"),
    (rf"(.+?): {_N} GB usable of {_N} GB reported \(nvidia-smi\) less (\d+) MiB driver reservation",
     r"\1：nvidia-smi 报告 \3 GB，减去驱动保留的 \4 MiB，可用 \2 GB"),
    (rf"(.+?): {_N} GB usable of {_N} GB reported", r"\1：可用 \2 GB（报告容量 \3 GB）"),
    (r"(\d+)-bit LoRA: frozen base weights in (\w+); adapters in (\w+) \(PEFT default\)",
     r"\1 位 LoRA：冻结的基座权重为 \2；适配器为 \3（PEFT 默认）"),
    (r"tensor parallel over (\d+) GPUs \(divides the (\d+) heads\)", r"张量并行 \1 卡（整除 \2 个注意力头）"),
    (r"MoE: every expert's weights are resident; compute uses the active parameters only",
     "MoE：所有专家的权重都常驻显存；计算只用激活参数"),
    (r"MoE: compute uses the active parameters; a decode step reads only the experts the batch routes to",
     "MoE：计算只用激活参数；每个解码步只读取本批路由到的专家"),
    (rf"rent: {_N} GPUs x {_N} h = {_N} GPU-hours x the price per GPU-hour; storage, egress and idle time between jobs not included",
     r"租用：\1 张卡 × \2 小时 = \3 卡时 × 每卡时价格；不含存储、流量和任务间的空闲时间"),
    (rf"PUE {_N} \(default, cooling and power delivery; --pue\)", r"PUE \1（默认，含制冷与供电损耗；--pue）"),
    (rf"depreciation over {_N} years \(default; --depreciation-years\)", r"折旧 \1 年（默认；--depreciation-years）"),
    (rf"resale at {_N}% of the purchase price after {_N} years \(default; --resale-fraction\)",
     r"\2 年后按购买价的 \1% 转售（默认；--resale-fraction）"),
    (r"buy: the job's share of \(purchase - resale\) over the depreciation years and of hosting, by its hours over the "
     rf"{_N}% of each year the GPUs work, plus power = TDP x GPUs x hours x PUE x price",
     r"自购：按任务时长占每年 \1% 工作时间的比例分摊（购买价 − 残值）的折旧和托管费，加电费 = TDP × 卡数 × 小时 × PUE × 电价"),
    (rf"buy: purchase less resale when sold after {_N} h \({_N}% of the price back: {_N}% soon after purchase, falling to "
     rf"{_N}% after {_N} years, an assumption\), hosting for {_N} month\(s\), power = TDP x GPUs x {_N} working hours x PUE "
     r"x price",
     r"自购：持有 \1 小时后卖出（收回价格的 \2%：刚买不久卖约 \3%，\5 年后降到 \4%，假设值），托管 \6 个月，"
     r"电费 = TDP × 卡数 × \7 工作小时 × PUE × 电价"),
    (rf"buying beats renting when the GPUs are held longer than (.+?) working {_N}% of the time \(resale credited\)",
     r"持有超过 \1、且 \2% 的时间在干活时，买比租划算（计入转售）"),
    (r"no hosting: (\S+) is a desk card \(a PC or a Mac at home or in the office\), so only its electricity counts "
     r"\(--hosting-per-gpu-month to add rack space\)", r"不计托管费：\1 是桌面卡（家里或办公室的 PC / Mac），只算电费"
     r"（--hosting-per-gpu-month 可加机柜费用）"),
    (r"break-even months = purchase / \(monthly rent at this utilization - monthly hosting and power\), typical prices, resale not credited",
     "回本月数 = 购买价 ÷（该利用率下的月租金 − 每月托管与电费），按典型价格，不计残值"),
    (r"weights in (.+?) \((.+?)\), KV cache in (\w+) \(default\)", r"权重格式 \1（\2），KV cache 为 \3（默认）"),
    (rf"the hardware holds {_N} tokens but (.+?) is trained for {_N}",
     r"硬件能容纳 \1 个 token，但 \2 的训练上下文只有 \3"),
    (rf"each request: {_N} prompt \+ {_N} output tokens", r"每个请求：输入 \1 + 输出 \2 个 token"),
    (rf"targets: TTFT <= {_N} s( \(default\))?, ITL <= {_N} ms( \(default\))?",
     r"目标：首 token 时间 ≤ \1 秒\2，token 间隔 ≤ \3 毫秒\4"),
    (rf"{_N} sequence\(s\) of {_N} prompt \+ {_N} output tokens; engine (\S+) \(CUDA graphs\)",
     r"\1 条序列，每条输入 \2 + 输出 \3 个 token；引擎 \4（CUDA graphs）"),
    (rf"prefill at {_N}% of dense (\w+) {_N} TFLOPS; decode reads at {_N}% of {_N} GB/s",
     r"预填充按稠密 \2 \3 TFLOPS 的 \1% 计；解码按 \5 GB/s 带宽的 \4% 读取"),
    (r"QLoRA: layer weights in NF4 .*", "QLoRA：各层权重为 NF4（bitsandbytes，64 值一块，双重量化）；嵌入层和输出头为 bf16；适配器为 fp32（PEFT 默认）"),
    (rf"USD prices converted to CNY at {_N} CNY/USD \(default, an assumption; --cny-per-usd\)",
     r"美元价格按 \1 元/美元换算为人民币（默认汇率，是假设；--cny-per-usd）"),
    (rf"USD prices converted to CNY at {_N} CNY/USD", r"美元价格按 \1 元/美元换算为人民币"),
    (rf"{_N} concurrent users = {_N} requests in flight .*",
     r"\1 个并发用户 = 同时在处理的 \2 个请求（每个用户上一个请求结束就发下一个；如有思考时间，在途请求会更少）"),
    (rf"past {_N} running sequences per replica: new requests wait in the queue.*",
     r"每个副本超过 \1 条运行中的序列后，新请求排队；KV 块不够时最新的请求被抢占、稍后重算（它的延迟会突增）"),
    (rf"past {_N} running sequences per replica: requests wait in the queue.*",
     r"每个副本超过 \1 条运行中的序列后，请求排队直到 KV 池空出；KV 空间不足时运行中的请求可能被撤回重算"),
    (r"prefill compute-bound at ([\d.]+)% of dense peak \(([\d,.]+) ms per prompt on TP(\d+)\); decode reads weights \+ KV at "
     r"([\d.]+)% of ([\d,.]+) GB/s; prefill takes ([\d.]+)% of GPU time.*",
     r"预填充受算力限制，按稠密峰值的 \1% 计（TP\3 上每个提示 \2 毫秒）；解码按 \5 GB/s 带宽的 \4% 读取权重与 KV；"
     r"预填充占 GPU 时间的 \6%，解码步按此比例拉长（chunked prefill，不计重叠收益）"),
    (rf"electricity {_N} (CNY|USD)/kWh \(default; --electricity-price\)", r"电价 \1 \2/千瓦时（默认；--electricity-price）"),
    (rf"hosting {_N} (CNY|USD) per GPU-month for rack space, cooling and network \(default, an assumption; "
     r"--hosting-per-gpu-month\); staff time not included",
     r"托管费每卡每月 \1 \2（机柜、制冷和网络；默认值，是假设；--hosting-per-gpu-month）；不含人力"),
    (r"prices are estimates \(ranges\) with dates; replace them with your quotes.*",
     "价格是带日期的估计区间；请换成你的报价：--price-per-hour、--purchase-price，或价格文件（GPU_ADVISOR_PRICES 或 "
     "~/.config/gpu-advisor/prices.yaml）"),
    (rf"MFU {_N}, band {_N}-{_N} \(default for (\w+): (.+); --mfu to override\)",
     r"MFU \1，区间 \2-\3（\4 架构的默认值：\5；可用 --mfu 覆盖）"),
    (r"layout: single", "布局：单卡"),
    (r"layout: tp, TP (\d+) with two all-reduces per layer", r"布局：张量并行 TP \1，每层两次 all-reduce"),
    (rf"dense (\w+) peak {_N} TFLOPS per GPU \((.+?),? GPU table\)", r"每卡稠密 \1 峰值 \2 TFLOPS（\3，GPU 规格表）"),
    (rf"vLLM: --gpu-memory-utilization {_N}; the KV pool after weights, a profiled forward of {_N} tokens and CUDA graphs "
     rf"holds {_N} tokens = {_N} sequences of {_N}( capped at the engine's --max-num-seqs {_N})?",
     r"vLLM：--gpu-memory-utilization \1；扣除权重、\2 token 的测算前向和 CUDA graphs 后，KV 池容纳 \3 个 token = \4 条 \5 token 的序列\6"),
    (rf"SGLang: --mem-fraction-static {_N}; the KV pool after weights, a profiled forward of {_N} tokens and CUDA graphs "
     rf"holds {_N} tokens = {_N} sequences of {_N}",
     r"SGLang：--mem-fraction-static \1；扣除权重、\2 token 的测算前向和 CUDA graphs 后，KV 池容纳 \3 个 token = \4 条 \5 token 的序列"),
    (rf"utilization {_N}: owned GPUs do useful work {_N}% of the year \(default; --utilization\); idle power not counted",
     r"利用率 \1：自有 GPU 一年中 \2% 的时间在干活（默认；--utilization）；不计空闲功耗"),
    (rf"'(\w+)' names no specific model: sized as a generic dense decoder with exactly {_N} parameters shaped like (.+?) "
     r"\((.+)\)",
     r"“\1”没有指明具体模型：按恰好 \2 个参数的通用稠密解码器估算，结构仿照 \3（\4）"),
    (rf"power: (\S+) TDP {_N} W per GPU while the job runs \(GPU table\); .*",
     r"功耗：\1 每卡 TDP \2 W，按任务运行时间计（GPU 规格表）；服务器的 CPU、内存、风扇和网络另有功耗"),
    (rf"(\w+) = (\d+)-bit with group size (\d+): fp16 scale \+ (\d+)-bit zero per group \(\+{_N}%\)",
     r"\1 = \2 位，分组大小 \3：每组一个 fp16 缩放和一个 \4 位零点（+\5%）"),
    (r"MLA: the compressed latent .*", "MLA：缓存压缩后的潜向量（kv_lora_rank + rope 维），与 vLLM/SGLang 相同；"
                                       "Hugging Face transformers 缓存解压后的 K、V，每 token 大得多；TP 下每卡都持有完整潜向量"),
    (rf"rental price {_N} (CNY|USD) per GPU-hour \(given\)", r"租用价格 \1 \2/卡·时（你给出的）"),
    (rf"purchase price {_N} (CNY|USD) per GPU \(given\)", r"购买价格 \1 \2/卡（你给出的）"),
    (rf"purchase: new prices for (\S+) \({_N} record\(s\)\): range across records, typical = median",
     r"购买：\1 的新卡价格（\2 条记录）：区间取各记录范围，典型值取中位数"),
    (rf"rental: on-demand prices for (\S+) across {_N} record\(s\): .*",
     r"租用：\1 的按需价格（\2 条记录）：低值取最低、高值取最高、典型值取中位数"),
    (rf"no GPU count fits without sharding: .*", "不切分时加卡也放不下：ZeRO stage 0（纯数据并行）每张卡都存全部模型状态；"
                                                 "可试 --zero 3、--offload optimizer 或 8-bit 优化器"),
    (rf"no GPU count fits: .*", "加卡也放不下：不随卡数减少的部分（激活、logits、缓冲）超过了单卡；可试 --recompute full、"
                                "更小的 --micro-batch 或 --seq-len，或 --tp"),
    (rf"cost: price table: typical on-demand of {_N} record\(s\), range {_N}-{_N} USD per GPU-hour; input/output split by GPU "
     rf"time \(prefill share {_N}%\)",
     r"成本：价格表中 \1 条记录的典型按需价，区间 \2-\3 美元/卡·时；输入/输出成本按 GPU 时间拆分（预填充占 \4%）"),
    (rf"weights are read as (.+?) \({_N} B per weight\) and computed in (\w+) \(weight-only kernels\)",
     r"权重按 \1 读取（每权重 \2 字节），以 \3 计算（仅权重量化的 kernel）"),
    (rf"(\S+) \((.+?)\): {_N} bits per weight, the published whole-file average \((.+)\)",
     r"\1（\2）：每权重 \3 位，为公开的整文件平均值（\4）"),
    (rf"(\S+) \((.+?)\): {_N} bits per weight incl\. block scales \((.+)\)", r"\1（\2）：每权重 \3 位，含块缩放（\4）"),
    (rf"{_N} requests/s arriving evenly \(Poisson\); p50-style steady-state figures, no bursts",
     r"每秒 \1 个请求均匀到达（泊松）；稳态的中位数量级，不含突发"),
    (rf"cost: on-demand rental at the median of the price table's USD records for each GPU \(CNY-only GPUs converted at "
     rf"{_N} CNY/USD; estimates; write your price in the question to replace them\)",
     r"成本：每种 GPU 取价格表美元记录的中位按需租价（只有人民币报价的按 \1 元/美元换算；估计值；在问题里写上你的价格即可替换）"),
    (r"ranking: cheapest, then fastest", "排序：先比成本，再比速度"),
    (r"one box of (\d+) does not hold it in (\S+); (\d+) boxes \((\d+) GPUs\) do, for the weights and one ([\d,]+)-token sequence",
     r"一台 \1 卡机放不下（\2）；要 \3 台（\4 张卡）才放得下权重和一条 \5 token 的序列"),
    (r"a modified card \(no vendor warranty, unofficial firmware\): ranked after the official cards",
     "魔改卡（没有厂商保修、固件非官方）：排在正式产品之后"),
    (r"no rental price in the table for this GPU \(add one to your prices file\)", "价格表里没有这张卡的租价（可在价格文件中加入）"),
    (r"the only one with a price in the table \(the others cannot be compared on cost\)",
     "价格表里只有它有价格（其余的无法按成本比较）"),
    (r"cheapest that meets the deadline with (\d+)% to spare", r"按时完成且留出 \1% 余量的方案里最便宜"),
    (r"cheapest that meets the deadline", "按时完成的方案里最便宜"),
    (r"only just: inside the ([\d,.]+) h deadline, without (\d+)% to spare", r"勉强：在 \1 小时期限内，但没有 \2% 的余量"),
    (r"misses the ([\d,.]+) h deadline by ([\d,.]+) h", r"比 \1 小时的期限晚 \2 小时"),
    (r"cheapest", "最便宜"), (r"fastest", "最快"),
    (r"\$([\d,.]+) more than (\S+), slower \(([\d,.]+) h\)", r"比 \2 贵 $\1，而且更慢（\3 小时）"),
    (r"\$([\d,.]+) more than (\S+), faster \(([\d,.]+) h\)", r"比 \2 贵 $\1，但更快（\3 小时）"),
    (r"\$([\d,.]+) more than (\S+)", r"比 \2 贵 $\1"),
    (r"slower than (\S+)", r"比 \1 慢"), (r"ties (\S+) on cost", r"与 \1 成本相同"),
    (r"\$([\d,.]+) cheaper than (\S+), slower \(([\d,.]+) h\)", r"比 \2 便宜 $\1，但更慢（\3 小时）"),
    (r"\$([\d,.]+) cheaper than (\S+)", r"比 \2 便宜 $\1"),
    (r"([\d.]+)× faster than (\S+) for ([\d.]+)× the cost \(no deadline or budget given: the time is weighed too\)",
     r"比 \2 快 \1 倍，费用是它的 \3 倍（没给截止时间或预算：时间也要算进去）"),
    (r"over the budget by \$([\d,.]+)", r"超出预算 $\1"),
    (r"serving (\d+) concurrent user\(s\) at (\d+) tokens each with (\S+), within TTFT <= ([\d.]+) s and ITL <= ([\d.]+) ms "
     r"\(the serving planner: .*\); cost per hour",
     r"按 \1 个并发用户、每个 \2 token、引擎 \3、首 token ≤ \4 秒且每 token ≤ \5 毫秒规划（服务规划器：节点内张量并行，"
     r"跨节点用整机，再加副本）；费用按小时"),
    (rf"this configuration does not fit {_N} x (\S+) \(needs {_N}\): the speed is what it would be if it did",
     r"这个配置在 \1 张 \2 上放不下（需要 \3 张）：速度是假设放得下时的估计"),
    (r"break-even: renting costs less per month than hosting and powering owned GPUs; buying never pays",
     "回本：每月租金低于自有 GPU 的托管和电费，买卡永远回不了本"),
    (r"break-even needs both prices: --mode both", "回本计算需要租价和买价：--mode both"),
    (rf"break-even after {_N} months: beyond the {_N}-year depreciation life", r"\1 个月后才回本：超过了 \2 年的折旧期"),
    (r"LoRA/QLoRA: no weight gradients for frozen matrices \(4·N·D instead of 6·N·D\)",
     "LoRA/QLoRA：冻结矩阵不算权重梯度（4·N·D 而不是 6·N·D）"),
    (rf"{_N} training tokens \(default for fine-tuning; --tokens\)", r"训练 token 数 \1（微调的默认值；--tokens）"),
    (r"TP(\d+) within one node over PCIe \(past the card's bridged pair: every all-reduce is slower\): two all-reduces "
     r"per layer per step", r"TP\1 在单机内走 PCIe（超出两卡桥接：每次 all-reduce 都更慢）：每层每步两次 all-reduce"),
    (r"TP(\d+) within one node over PCIe \(no NVLink: every all-reduce is slower\): two all-reduces per layer per step",
     r"TP\1 在单机内走 PCIe（没有 NVLink：每次 all-reduce 都更慢）：每层每步两次 all-reduce"),
    (r"TP(\d+) within one node over (NVLink|HCCS|Infinity Fabric|Unified Bus|PCIe)(.*): two all-reduces per layer per step",
     r"TP\1 在单机内走 \2\3：每层每步两次 all-reduce"),
    (r"mixed precision, (\S+): weights (\d+) \+ gradients (\d+) \+ master (\d+) bytes/parameter \+ optimizer states",
     r"混合精度，\1：权重 \2 + 梯度 \3 + 主权重 \4 字节/参数 + 优化器状态"),
    (r"(.+?) has no FP8 tensor cores: FP8 checkpoints run there as weight-only W8A16.*",
     r"\1 没有 FP8 张量核心：FP8 检查点在它上面按仅权重的 W8A16 运行（如 vLLM 的 Marlin kernel），显存按计算值，计算仍是 16 位"),
    (r"per GPU type: the least count that fits .*", "每种 GPU：取放得下的最少卡数（多卡时 ZeRO-3、完全重计算），"
                                                   "若赶不上截止时间且加卡仍有用则翻倍"),
    (r"GPU reserve: CUDA context ([\d.]+) GB \+ llama\.cpp compute buffer ~([\d.]+) GB.*",
     r"GPU 预留：CUDA 上下文 \1 GB + llama.cpp 计算缓冲约 \2 GB（随 -ub 和上下文变化）"),
]
_COMPILED = [(re.compile(p), zh) for p, zh in _ASSUMPTIONS]
_HAN = re.compile(r"[\u4e00-\u9fff]")


def assumption_zh(line: str) -> str:
    """The Chinese rendering of one English assumption line, or the line unchanged when no pattern matches
    (or it is Chinese already)."""
    if len(_HAN.findall(line)) > len(re.findall(r"[A-Za-z]", line)):
        return line  # Chinese already (an English line may still quote a Chinese example: '4 张 H100')
    for pattern, zh in _COMPILED:
        m = pattern.fullmatch(line.strip())
        if m:
            return m.expand(zh).replace("个active 参数", "个激活参数")
    return line


def in_lang(lang: str, lines: list[str]) -> list[str]:
    """Assumption lines for an answer in `lang`."""
    return [assumption_zh(x) for x in lines] if lang == "zh" else list(lines)
