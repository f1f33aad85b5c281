"""Bilingual domain glossary: Chinese (and shorthand) terms expanded into English query words.

all-MiniLM-L6-v2 reads no Chinese, so a Chinese query reaches the dense index only through
these English expansions; BM25 (with jieba) matches the Chinese words themselves.
"""
from __future__ import annotations

import re

# term -> English words appended to the query. Longer terms are matched first.
GLOSSARY: dict[str, str] = {
    "显存": "GPU memory VRAM", "内存": "host RAM memory", "带宽": "bandwidth", "显存带宽": "memory bandwidth",
    "算力": "compute TFLOPS throughput", "微调": "fine-tuning fine-tune", "全量微调": "full fine-tuning",
    "全参微调": "full fine-tuning", "全量": "full", "全参": "full parameters", "预训练": "pre-training training",
    "训练": "training", "推理": "inference serving", "部署": "deployment serving inference", "卡": "GPU",
    "显卡": "GPU", "多卡": "multi-GPU", "单卡": "single GPU one", "集群": "cluster", "节点": "node",
    "够不够": "enough fit", "够用": "enough fit", "放得下": "fit", "装得下": "fit", "多少": "how much how many",
    "几张": "how many GPUs", "参数": "parameters", "参数量": "parameter count", "模型": "model",
    "量化": "quantization", "精度": "precision", "混合精度": "mixed precision", "半精度": "half precision fp16 bf16",
    "梯度": "gradients", "优化器": "optimizer states", "激活": "activations", "激活值": "activations",
    "重计算": "recomputation checkpointing", "检查点": "checkpoint", "断点续训": "checkpoint resume fault recovery",
    "故障": "failure fault", "容错": "fault tolerance", "并行": "parallelism", "数据并行": "data parallelism DP",
    "张量并行": "tensor parallelism TP", "流水线并行": "pipeline parallelism PP", "序列并行": "sequence parallelism",
    "卸载": "offload", "互联": "interconnect NVLink", "上下文": "context length", "长上下文": "long context",
    "缓存": "cache", "吞吐": "throughput", "延迟": "latency", "价格": "price cost", "多少钱": "price cost",
    "成本": "cost", "租": "rent cloud", "租用": "rent cloud", "买": "buy purchase", "购买": "buy purchase",
    "二手": "used second-hand", "国产": "domestic China Ascend", "昇腾": "Ascend Huawei", "华为": "Huawei Ascend",
    "英伟达": "NVIDIA", "对比": "compare comparison", "区别": "difference compare", "哪个好": "compare which better",
    "选型": "choose buying", "生态": "ecosystem CUDA software", "功耗": "power TDP", "架构": "architecture",
    "文章": "article claim errata", "错误": "wrong error errata", "说法": "claim", "对吗": "correct claim errata",
    "稀疏": "sparse sparsity", "稠密": "dense", "词表": "vocabulary vocab", "序列长度": "sequence length",
    "批大小": "batch size", "专家": "experts MoE", "混合专家": "mixture of experts MoE", "注意力": "attention",
    "分组查询注意力": "GQA grouped-query attention", "多头潜在注意力": "MLA multi-head latent attention",
    "时间": "time", "多久": "how long time", "速度": "speed throughput", "出口": "export China market",
    "特供": "China market export", "公式": "formula", "怎么算": "how to compute formula estimate",
    "估算": "estimate", "存储": "storage", "写入": "write", "频率": "how often frequency",
    "16位": "16-bit bf16 fp16", "8位": "8-bit int8 fp8", "4位": "4-bit int4 nf4", "切分": "shard partition split",
    "分片": "shard sharding", "显存不足": "out of memory OOM", "爆显存": "out of memory OOM",
}

# English abbreviations, matched as whole words, expanded into both languages.
ABBREVIATIONS: dict[str, str] = {
    "dp": "data parallelism 数据并行", "ddp": "data parallelism 数据并行", "tp": "tensor parallelism 张量并行",
    "pp": "pipeline parallelism 流水线并行", "sp": "sequence parallelism 序列并行", "ep": "expert parallelism 专家并行",
    "oom": "out of memory 显存不足", "ft": "fine-tuning 微调", "sft": "supervised fine-tuning 微调",
    "moe": "mixture of experts 专家", "ckpt": "checkpoint 检查点", "kv": "KV cache 缓存",
    "seq": "sequence length 序列长度", "bs": "batch size 批大小", "mbs": "micro-batch 批大小",
}
_TERMS = sorted(GLOSSARY, key=len, reverse=True)


def expand(query: str) -> str:
    """The query followed by the English words of every glossary term (and abbreviation) it contains."""
    extra: list[str] = []
    rest = query
    for term in _TERMS:
        if term in rest:
            extra.append(GLOSSARY[term])
            rest = rest.replace(term, " ")
    words = {w.lower() for w in re.findall(r"(?<![A-Za-z])[A-Za-z]+(?![A-Za-z])", query)}
    extra += [ABBREVIATIONS[w] for w in sorted(words & ABBREVIATIONS.keys())]
    return query if not extra else f"{query} {' '.join(extra)}"
