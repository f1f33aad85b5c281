"""Intent evidence: word-bounded cues and counter-cues in both languages, and what the stated inputs imply.

Each intent is scored; the best supported one wins. Weak or tied evidence is reported so the reader
can ask instead of guessing.
"""
from __future__ import annotations

import re

from assistant.readers.slots import API_VS_SELF, RENT_OR_BUY, w

# (intent, weight, pattern). English patterns go through w() so they never fire inside another word.
CUES: list[tuple[str, float, str]] = [
    ("price", 3, r"多少钱|什么价|啥价|价格|价钱|售价|报价|行情|多少一张|一张多少|一台多少|卖多少|贵不贵|几块钱|多少块|"
                 r"多少(?:人民币|美元|美金|刀)|什么价位|"
                 + w(r"how much (?:is|are|does|do)(?: an?| the| one)?(?! it cost to| it take)|price of|prices? (?:for|of)|pricing|"
                     r"msrp|street price|going rate|hourly rate|rent(?:al)? price|rental cost|hourly rental|rental per hour|"
                     r"on-demand price|price per (?:gpu[\s-]?)?hour|per hour in|how much per hour|cost per (?:gpu[\s-]?)?hour|"
                     r"what does an? \S+ cost")),
    ("price", 3, r"租.{0,6}(?:一小时|每小时|一天|一个月).{0,4}(?:多少|几块)|(?:一小时|每小时).{0,4}多少|"
                 r"(?:\$|¥|￥)\s*/\s*(?:hr|hour|h|gpu[\s-]*h\w*|month|mo)(?![a-z])(?=.{0,40}(?:rent|租))|"
                 r"(?:rent|租)\w*\s+(?:that|the|this|a|one|an)\s+(?:node|box|server|machine|整机|机器|服务器).{0,20}"
                 r"(?:per hour|an hour|a month|/hr|/h|\?)"),
    ("price", 1, w(r"price|prices|cost of an?|on the cloud|per hour") + r"|租一小时|租.{0,4}一小时|一小时多少|每小时多少|多少钱一小时|租金|租价"),
    ("cost", 3, RENT_OR_BUY + "|" + API_VS_SELF + r"|成本|花多少|要花|费用|花费|开销|总价|电费|自建还是|还是租|还是买|回本|划算|省钱|账单|"
                + w(r"how much (?:would|will|does|did) (?:it|this|that) cost|cost(?:s)? to|total cost|rent(?:ing)? or buy(?:ing)?|"
                    r"buy(?:ing)? or rent(?:ing)?|rent vs\.? buy|buy vs\.? rent|break[\s-]?even|payback|tco|roi|bill|(?<!to )spend|"
                    r"cheaper to (?:rent|buy)|worth buying|own vs|electricity|run me|set me back|how much would .{0,40}cost|"
                    r"how much (?:to|for|does it cost to|is it to) (?:rent|renting|lease|leasing|buy|buying)|"
                    r"what(?:['’]ll| will| would| does| did) (?:it|this|that|the (?:job|run|training)) cost|cost on the cloud|"
                    r"how much money")),
    ("cost", 1, w(r"cost|costs|rent|renting|rental|buy|buying|purchase") + r"|租|买"),
    ("training_time", 3, r"多久|多长时间|多少时间|几天|多少天|几周|几个月|多少小时|几个小时|训练时间|耗时|(?:小时|天|周)还是(?:天|周|月)|(?<![一每/])卡时|要跑多|跑多久|训多久|"
                         r"每步(?:要|大概|约)?(?:多少|几)秒|每个?\s*step\s*(?:要|大概)?(?:多少|几)秒|步时|"
                         r"快多少|慢多少|快几倍|慢几倍|"
                         + w(r"how long(?! (?:can|could|may|will) (?:the |a |my |our )?(?:context|prompts?|inputs?|conversations?|"
                             r"sequences?|documents?|chats?))(?! (?:a |of a )?(?:context|prompt|input|sequence))|how many (?:days|hours|weeks|months)|wall[\s-]?clock|time to (?:train|finish|complete)|"
                             r"(?:minutes|hours|days|weeks) or (?:hours|days|weeks|months)|"  # ('are we talking hours or days?')
                             r"time per (?:optimizer |training )?step|step time|seconds per step|s/step|"
                             r"how many (?:optimizer |training |total )?steps|number of (?:optimizer |training )?steps|steps\?|"
                             r"training time|(?<!per )(?<!/)gpu[\s-]?hours?|(?<!per )(?<!/)(?:[ahlb]\d{2,3}|h20|mi\d{3}x?)[\s-]?hours|gpu[\s-]?days|(?:days|hours|weeks|months) to (?:pre[\s-]?train|train|"
                             r"fine[\s-]?tune|finish|complete|run)|(?:rough|roughly|approx\w*|about|estimated?) (?:days|hours|weeks)|eta|"
                             r"how (?:much )?(?:faster|slower|longer)|speed[\s-]?up|slower|faster|longer|"
                             r"time per (?:optimizer |training )?step|step time|wall[\s-]?(?:clock[\s-]?)?time|total time")
                         + r"|gpu\s*小时|gpu时|降级|会增加多少|慢多少|快多少|一个\s*step\s*多久|每个?\s*step\s*多久|多少个?\s*step|多少步"),
    # ('官方 FP8 权重' is the published checkpoint, not a published run; 'the dashboard said' is the user's own figure)
    ("published_run", 3, r"官方(?:数据|公布|报告|说|称|论文|披露|给出|宣称)|报告|论文|号称|声称|据说|公布|披露|用了多少|花了多少|可信|靠谱吗|合理吗|训了多少|"
                         + w(r"reported|report|published|paper|according to|plausible|realistic|"
                             r"did (?:meta|deepseek|they|it) use|took to train|was trained|did .{0,30} take|hours did|consistent|"
                             r"says (?:it|they|that|\d)|(?:meta|deepseek|openai|google|they|the paper|the report|the blog|the "
                             r"vendor|nvidia|he|she) said")),
    ("serving", 2, w(r"tpot|itl|inter[\s-]?token latency|time per output token|ms per (?:output )?token|decode latency")
                   + r"|每\s*token\s*(?:延迟|耗时)|出字速度"),
    ("serving", 3, r"(?<![单一1]\s)(?<![单一1])并发(?!\s*(?:数|为|是|=)?\s*1(?![\d.]))|同时在线|同时使用|同时访问|多少人用|多少用户|qps|线上服务|同时跑|几路|多少路|kv ?池|"
                   + w(r"concurrency|qps|rps|requests per|serve \d+|serving \d+|how many (?:concurrent|simultaneous|parallel)|"
                       r"throughput for \d+|gpu[\s_-]*memory[\s_-]*utili[sz]ation|kv[\s-]?cache (?:pool|blocks)|"
                       r"max[\s_-]*num[\s_-]*seqs|how many (?:users|requests|people|sessions)|max(?:imum)? number of "
                       r"(?:concurrent|simultaneous|parallel|users|requests)|concurrent requests|kv cache (?:actually )?hold") +
                   r"|能服务多少|服务多少人|同时服务"),
    ("serving", 1, w(r"concurrent|simultaneous|users|production|at once")),
    ("inference_speed", 3, r"速度|多快|延迟|首字|首 ?token|吞吐|每秒|生成速度|最大 ?batch|"
                           + w(r"tokens?/s|tok/s|t/s|tokens?/sec|tok/sec|tps|tokens? per second|latency|ttft|itl|throughput|"
                               r"how fast|speed|max(?:imum)? batch|"
                               r"time to first token|tokens a second")),
    ("inference_memory", 2, r"推理|部署|能跑|跑得动|跑得起|跑不跑得|跑起来|能不能跑|可以跑|运行|加载|装得下|跑满血|本地跑|带得动|跑得了|"
                            + w(r"run|running|inference|serve|serving|host|hosting|deploy\w*|load|loading|locally|"
                                r"what (?:models?|llms?) (?:can|could|will|would|fits?)|can i run|will it run|handle it|"
                                r"what fits")),
    ("training_memory", 2, r"微调|训练|全参|预训练|"
                           + w(r"fine[\s-]*tun\w*|finetun\w*|sft|train|training|lora|qlora|pre[\s-]?train\w*|dpo|grpo|rlhf")),
    ("memory", 2, r"显存|够不够|够用|够吗|放得下|放不下|装不下|放下|放进|装下|装得下|塞得下|塞下|爆显存|几张|多少张|几块|多少块|几卡|需要多少|要多少|最长上下文|"
                  r"最大上下文|每个\s*token" + "|"
                  + w(r"vram|memory|enough|fit|fits|oom|out of memory|how many (?:gpus|cards|h100s?|a100s?)(?![\s-]*(?:days?|hours?|hrs?))|gb of|"
                      r"how much (?:gpu )?(?:memory|vram)|kv[\s-]?cache size|per-token|max(?:imum)? context")),
    ("recommend", 3, r"推荐|选什么|选哪|哪个好|哪款|哪种卡|买什么卡|用什么卡|什么卡|最便宜|最划算|性价比|买啥|买什么|该买|配啥|"
                     r"买哪种|买哪个|买哪款|哪种(?:整机|服务器|机器|机型)|什么(?:整机|服务器|机型)|"
                     + w(r"which gpu|what gpu|which card|what card|which hardware|what hardware|recommend\w*|"
                         r"should (?:i|we) (?:buy|get|use|rent|pick|choose)|best gpu|cheapest|bang for|which one|"
                         r"choosing between|choose between|pick between|recomm?end\w*|recomend\w*|best cluster|"
                         r"what cluster|which cluster|best setup|what setup|what (?:should|do) (?:i|we) buy|what to buy|"
                         r"(?:what|which) (?:server|machine|box|node|system|hardware)s? (?:should|to|do|would) (?:\w+ ){0,3}"
                         r"(?:buy|get|purchase)|"
                         r"what are (?:the|our|my) options|what options|which (?:gpus|cards|accelerators) (?:can|could|would)|"
                         r"what would you (?:pick|choose|go with|recommend)") +
                     r"|什么集群|什么配置|怎么配|有哪些(?:方案|选择|选项)|有什么(?:方案|选择|选项)|哪些卡(?:能|可以)|你会选|你选哪"),
    ("compare", 3, r"对比|比较|区别|差别|差距|差多少|好还是|哪个更|还是|哪个.{0,24}更|跟.{0,8}比|和.{0,8}比|不一样|有啥不同|有什么不同|"
                   + w(r"vs\.?|versus|compared? (?:to|with)|difference|better than|side by side|or")),
    ("spec", 2, r"规格|带宽|算力|显存多大|多少显存|功耗|参数表|" + w(r"specs?|bandwidth|tflops|tdp|nvlink|hbm\w*|datasheet")),
    ("spec", 3, r"适合|适不适合|好不好|好用吗|值得|" + w(r"good for|any good|worth it|suitable|is it good")),
    ("explain", 2, r"什么意思|怎么理解|" + w(r"what is|what's|what are|explain|how does|how do|meaning of")),
    ("explain_strong", 4, r"什么是|是什么|原理|为什么|为啥|区别是|有什么区别|有啥区别|什么区别|啥区别|区别在哪|有何区别|"
                          r"差别在哪|有啥不同|有什么不同|不同在哪|好处|是怎么|怎么省|"
                          + w(r"why|difference between|what's the difference|what is the difference|how does .{0,40} (?:save|work)")),
    ("fact_check", 3, r"文章|说法|对吗|对不对|是真的吗|是否正确|博客|这篇|原文|原话|公众号|"
                      + w(r"article|is it true|is this true|is that (?:true|right|correct)|true that|fact[\s-]?check|blog post|this claim|the claim|"
                          r"from a blog|a blog")),
    ("fact_check", 1, r"网上说|有人说|据说|" + w(r"they say|someone said|i read")),
    # 'it needs 3 TB of VRAM, right?', '要 7G 显存对吧？': an amount claimed and checked
    ("fact_check", 4, r"\d+(?:\.\d+)?\s*(?:gb|tb|g)(?![a-z])[^?？。]{0,60}(?:(?<![a-z])(?:right|correct|true)|对吧|是吧|没错吧)\s*[?？]|"
                      r"\d+(?:\.\d+)?\s*(?:gb|tb)(?![a-z]).{0,160}?(?<![a-z])(?:confirm|verify|sanity[\s-]?check)(?![a-z])|"
                      r"\d+(?:\.\d+)?\s*(?:gb|tb|g)(?![a-z]).{0,80}?(?:确认一下|帮我确认|核实)"),
    ("fact_check", 6, r"核对|帮我检查|检查这段|检查一下这|" + w(r"fact[\s-]?check\w*|check (?:these|this|the following) (?:claims?|paragraph|text)")),
    # a vendor's proposal or quote to review: 'DeepSeek-R1 满血版，单卡 5090 即可部署……这方案靠谱吗？'
    ("fact_check", 6, r"(?:方案|报价|配置|宣传|供应商|厂商|销售)[^?？。]{0,80}?(?:靠谱吗|靠不靠谱|合理吗|可信吗|能信吗|是真的吗)|"
                      r"审一下|帮我审|审核一下|" + w(r"(?:vendor|sales|supplier)(?:'s)? (?:quote|proposal|claims?|pitch|spec)s?.{0,200}?"
                                                 r"(?:legit|realistic|right|true|accurate|believable|too good)|"
                                                 r"is (?:this|that|the) (?:quote|proposal|pitch) (?:legit|realistic|right|accurate)")),
    # 'a reseller claims their software can … in about 1 day. Is that plausible?', '厂商宣称 … 可信吗'
    # (a published run's GPU-hours quoted is the published-run check, not a vendor's claim)
    ("fact_check", 6, r"(?:宣称|号称|声称|承诺|保证|说能|说可以)(?:(?!卡时|gpu\s*小时)[^?？。]){0,160}?"
                      r"(?:可信吗|靠谱吗|真的吗|可能吗|现实吗|能信吗|合理吗)|"
                      + w(r"(?:claims?|claimed|claiming|says?|promis\w*|advertis\w*|pitch\w*|guarantee\w*)\b"
                          r"(?:(?!gpu[\s-]*hours?).){0,240}?"
                          r"(?:plausible|realistic|possible|legit|believable|true|accurate|too good|sanity[\s-]?check|"
                          r"is that real|bs|bullshit|for real)")),
]

# Concepts the reference notes explain (an explanation needs one of these).
CONCEPTS = (w(r"zero[\s-]?[0-3]?|fsdp|deepspeed|megatron|q?lora|kv ?cache|bf16|fp16|fp8|fp4|int8|int4|nf4|nvlink|nvswitch|pcie|"
              r"infiniband|roce|tensor parallel\w*|pipeline parallel\w*|data parallel\w*|checkpoint\w*|flash ?attention|moe|"
              r"tflops|hbm\w*|offload\w*|quantiz\w*|mixed precision|recomput\w*|activations?|optimizer states?|mfu|"
              r"paged ?attention|gqa|mla|sparsity|sparse|dense|gb vs gib|gib|memory|vram|bytes per param\w*|distill\w*")
            + r"|并行|精度|量化|混合精度|卸载|检查点|重计算|激活|优化器|注意力|算力|带宽|互联|稀疏|稠密|显存占用|显存|蒸馏|满血")

def score(text: str) -> tuple[dict[str, float], dict[str, int]]:
    """Evidence per intent from the words alone, and where each intent's last cue ends (the question is
    usually asked last: '...costs matter. How many days will it take?')."""
    scores: dict[str, float] = {}
    last: dict[str, int] = {}
    for intent, weight, pattern in CUES:
        hits = list(re.finditer(pattern, text))
        if hits:
            scores[intent] = scores.get(intent, 0.0) + weight
            last[intent] = max(last.get(intent, 0), hits[-1].end())
    return scores, last


# 'how much VRAM does it need?': the memory the job takes is asked (kept through the thread's follow-ups)
# 'how much headroom', '余量多少': the room left at the load asked (the capacity answer gives it; never 'not answered')
HEADROOM_ASK = r"余量|余地|富余|冗余|还能加|" + w(r"headroom|spare capacity|margin|room to grow|room left|how much room")
MEMORY_ASK = (r"多少显存|显存(?:要|需要|占|得)?(?:多少|多大)|要多大显存|" +
              w(r"how much (?:v?ram|gpu memory|memory|vram)|(?:v?ram|memory) (?:do i|do we|would|will) (?:i |we )?need|"
                r"memory footprint|total memory"))
