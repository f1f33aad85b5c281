"""Intent evidence: word-bounded cues and counter-cues in both languages, and what the stated inputs imply.

Each intent is scored; the best supported one wins. Weak or tied evidence is reported so the reader
can ask instead of guessing.
"""
from __future__ import annotations

import re

from assistant.readers.slots import w

# (intent, weight, pattern). English patterns go through w() so they never fire inside another word.
CUES: list[tuple[str, float, str]] = [
    ("price", 3, r"多少钱|什么价|啥价|价格|价钱|售价|报价|行情|多少一张|一张多少|一台多少|卖多少|贵不贵|"
                 + w(r"how much (?:is|are|does|do)(?: an?| the| one)?(?! it cost to| it take)|price of|prices? (?:for|of)|pricing|"
                     r"msrp|street price|going rate|hourly rate|rent(?:al)? price")),
    ("price", 1, w(r"price|prices|cost of an?") + r"|租一小时|租.{0,4}一小时|一小时多少|每小时多少|多少钱一小时"),
    ("cost", 3, r"成本|花多少|要花|费用|花费|开销|总价|电费|租还是买|买还是租|自建还是|还是租|还是买|回本|划算|省钱|账单|"
                + w(r"how much (?:would|will|does|did) (?:it|this|that) cost|cost(?:s)? to|total cost|rent(?:ing)? or buy(?:ing)?|"
                    r"buy(?:ing)? or rent(?:ing)?|rent vs\.? buy|buy vs\.? rent|break[\s-]?even|payback|tco|roi|bill|spend|"
                    r"cheaper to (?:rent|buy)|worth buying|own vs|electricity")),
    ("cost", 1, w(r"cost|costs|rent|renting|rental|buy|buying|purchase") + r"|租|买"),
    ("training_time", 3, r"多久|多长时间|多少时间|几天|多少天|几周|几个月|多少小时|几个小时|训练时间|耗时|卡时|要跑多|跑多久|训多久|"
                         r"快多少|慢多少|快几倍|慢几倍|"
                         + w(r"how long|how many (?:days|hours|weeks|months)|wall[\s-]?clock|time to (?:train|finish|complete)|"
                             r"training time|gpu[\s-]?hours?|gpu[\s-]?days|days to train|hours to train|eta|"
                             r"how (?:much )?(?:faster|slower)|speed[\s-]?up")),
    ("published_run", 3, r"官方|报告|论文|号称|声称|据说|公布|披露|用了多少|花了多少|可信|靠谱吗|合理吗|"
                         + w(r"reported|report|published|paper|according to|claims?|says?|said|plausible|realistic|"
                             r"did (?:meta|deepseek|they|it) use|took to train|was trained")),
    ("serving", 3, r"并发|同时在线|同时使用|同时访问|多少人用|多少用户|qps|线上服务|"
                   + w(r"concurrent|concurrency|simultaneous|qps|rps|users|requests per|serve \d+|serving \d+|"
                       r"in production|production|throughput for \d+")),
    ("inference_speed", 3, r"速度|多快|延迟|首字|首 ?token|吞吐|每秒|生成速度|"
                           + w(r"tokens?/s|tok/s|t/s|tps|tokens? per second|latency|ttft|itl|throughput|how fast|speed|"
                               r"time to first token|tokens a second")),
    ("inference_memory", 2, r"推理|部署|能跑|跑得动|跑得起|跑不跑得|跑起来|能不能跑|可以跑|运行|加载|装得下|跑满血|本地跑|"
                            + w(r"run|running|inference|serve|serving|host|hosting|deploy\w*|load|loading|locally|"
                                r"what (?:models?|llms?) (?:can|could|will|would|fits?)|can i run|will it run")),
    ("training_memory", 2, r"微调|训练|全参|全量|预训练|"
                           + w(r"fine[\s-]*tun\w*|finetun\w*|sft|train|training|lora|qlora|pre[\s-]?train\w*|dpo|grpo|rlhf")),
    ("memory", 2, r"显存|够不够|够用|够吗|放得下|放不下|装不下|爆显存|几张|多少张|几块|多少块|几卡|需要多少|要多少" + "|"
                  + w(r"vram|memory|enough|fit|fits|oom|out of memory|how many (?:gpus|cards|h100s?|a100s?)|gb of|"
                      r"how much (?:gpu )?(?:memory|vram)")),
    ("recommend", 3, r"推荐|选什么|选哪|哪个好|哪款|哪种卡|买什么卡|用什么卡|什么卡|最便宜|最划算|性价比|"
                     + w(r"which gpu|what gpu|which card|what card|which hardware|what hardware|recommend\w*|"
                         r"should (?:i|we) (?:buy|get|use|rent|pick|choose)|best gpu|cheapest|bang for")),
    ("compare", 3, r"对比|比较|区别|差别|差距|差多少|好还是|哪个更|" + w(r"vs\.?|versus|compared? (?:to|with)|difference|better than")),
    ("spec", 2, r"规格|带宽|算力|显存多大|多少显存|功耗|参数表|" + w(r"specs?|bandwidth|tflops|tdp|nvlink|hbm\w*|datasheet")),
    ("explain", 2, r"什么是|是什么|什么意思|原理|为什么|为啥|怎么理解|区别是|"
                   + w(r"what is|what's|what are|explain|why|how does|how do|meaning of|difference between")),
    ("fact_check", 3, r"文章|说法|对吗|对不对|是真的吗|是否正确|网上说|有人说|博客|这篇|原文|"
                      + w(r"article|is it true|is this true|true that|fact[\s-]?check|blog post|this claim|the claim|"
                          r"they say|someone said|i read")),
]

# Words that mark a question as being about LLM hardware at all (anything else is out of scope).
DOMAIN = (w(r"zero|fsdp|deepspeed|megatron|lora|kv ?cache|bf16|fp16|fp8|fp4|int8|int4|nf4|nvlink|nvswitch|pcie|"
            r"infiniband|roce|tensor parallel|pipeline parallel|data parallel|checkpoint\w*|flash ?attention|attention|moe|"
            r"gpus?|tflops|hbm|vram|offload|quantiz\w*|mixed precision|recomput\w*|activations?|optimizer|adam\w*|cuda|rocm|"
            r"cann|llms?|models?|tokens?|inference|training|fine[\s-]?tun\w*|vllm|ollama|gguf|awq|gptq")
          + r"|显存|显卡|并行|精度|量化|混合精度|卸载|检查点|重计算|激活|优化器|注意力|算力|带宽|互联|推理|训练|微调|模型|大模型")


def score(text: str) -> dict[str, float]:
    """Evidence per intent from the words alone."""
    scores: dict[str, float] = {}
    for intent, weight, pattern in CUES:
        if re.search(pattern, text):
            scores[intent] = scores.get(intent, 0.0) + weight
    return scores
