"""A what-if at the end of a message ('…how many fit? And if real requests average ~8k tokens?', '一年电费多少？如果平均负载
只有 60% 呢？'): a second ask, read the way the next turn of a conversation is read (assistant/readers/rules.read with
the first question as the previous turn), so it changes only what it names.
"""
from __future__ import annotations

import re
import unicodedata

from assistant.readers.asks import Ask
from assistant.readers.items import NOT_JOB

# the last sentence, when it asks about a changed condition
_WHAT_IF = re.compile(
    r"(?:^|(?<=[?？。.!！;；\n]))\s*((?:and\s+|but\s+|also\s+)?(?:what\s+if|if|how\s+about|what\s+about)\s+[^?？\n]{3,160}[?？]"
    r"|(?:and|or)\s+(?:at|with|for|on|in)\s+[^?？\n]{1,40}[?？]"
    r"|(?:那|那么)?\s*\d+(?:\.\d+)?\s*[kK万](?:\s*(?:token|上下文|context))?\s*(?:的话)?\s*呢\s*[?？]"
    r"|(?:那|那么|另外)?\s*(?:如果|假如|要是|若是?|换成|改成)[^?？。\n]{2,80}(?:呢|的话|怎么样|多少|几)[^?？。\n]{0,20}[?？]?)\s*$",
    re.IGNORECASE)


def what_if_asks(text: str, req, catalog) -> list[Ask]:
    """[the main question, the what-if] when the message ends with a what-if that changes something the main question
    states or assumes; [] otherwise."""
    from assistant.readers.rules import read

    text = unicodedata.normalize("NFKC", text).strip()
    m = _WHAT_IF.search(text)
    if not m or m.start(1) < 20:
        return []  # a message that is only a what-if is a question of its own
    head, clause = text[:m.start(1)].strip(), m.group(1).strip()
    if not re.search(r"[?？]\s*$", head):
        return []  # a what-if follows a question ('…how many fit? And if…'); 'If we trained a 70B…?' is the question
    first = read(head, catalog).request
    if first.intent in ("out_of_scope", "explain", "fact_check"):
        return []
    second = read(clause, catalog, previous=first.model_dump()).request
    base = first.model_dump()
    update = {k: v for k, v in second.model_dump().items() if k not in NOT_JOB and v != base.get(k)}
    if re.search(r"这台|这套|这个机器|这机器|同一台|(?<![a-z])(?:this|that|the same) (?:box|machine|server|rig|node)(?![a-z])",
                 clause.lower()):
        # ('…一年电费多少？电价 1 元/度 … 另外如果这台 4090 跑 … 电费摊到每百万 token 多少'): the machine referred back to
        # keeps its count, its electricity price and currency unless the clause states its own
        for k in ("num_gpus", "gpus_per_node", "nodes", "server", "electricity_per_kwh", "currency", "pue"):
            if update.get(k, "unset") is None:
                update.pop(k)
    if not update:
        return []
    main_update = {k: v for k, v in base.items() if k not in NOT_JOB and v != getattr(req, k)}
    label = ("主问题" if req.lang == "zh" else "as asked")
    # ('单卡要多久？换成 8 卡能快多少？'): only the count changes on a training time: the two counts compared (a speed-up)
    counts = "num_gpus" if set(update) == {"num_gpus"} and first.intent == second.intent == "training_time" else None
    return [Ask(text=label, intent=first.intent, update=main_update, compare=counts),
            Ask(text=clause if len(clause) <= 60 else clause[:57] + "…", intent=second.intent,
                update=main_update | update, compare=counts)]
