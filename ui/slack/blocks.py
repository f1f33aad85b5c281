"""Answer -> Slack Block Kit messages: a verdict header, the options as fields, the breakdown as a compact
table, assumptions and sources in context blocks, then the full answer; split within Slack's limits."""
from __future__ import annotations

import re

from assistant.answer import Answer

HEADER_MAX = 150          # plain_text in a header block
SECTION_MAX = 3000        # text of a section block
FIELD_MAX = 2000          # each field of a section; at most 10 fields
CONTEXT_MAX = 10          # elements in a context block
ANSWER_MAX = 12_000       # characters of answer text posted to Slack (a runaway LLM answer is cut, not 67 messages)
MESSAGES_MAX = 3          # messages per reply
BLOCKS_PER_MESSAGE = 50


def to_mrkdwn(markdown: str) -> str:
    """The assistant's Markdown in Slack's mrkdwn: **bold** -> *bold*, tables kept aligned in code blocks."""
    out, table = [], []

    def flush():
        if table:
            rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table
                    if not re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", line)]
            widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(map(len, rows)))]
            out.append("```\n" + "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows) + "\n```")
            table.clear()

    for line in markdown.splitlines():
        if line.lstrip().startswith("|"):
            table.append(line)
            continue
        flush()
        line = re.sub(r"\*\*(.+?)\*\*", r"*\1*", line)
        line = re.sub(r"^#{1,6}\s*(.+)$", r"*\1*", line)
        line = re.sub(r"^(\s*)- ", r"\1• ", line)
        out.append(line)
    flush()
    return "\n".join(out)


def _chunks(text: str, limit: int) -> list[str]:
    """Pieces of at most `limit` characters, cut at paragraph or line ends where possible (code fences re-closed)."""
    pieces, rest = [], text
    while len(rest) > limit:
        cut = rest.rfind("\n\n", 0, limit)
        if cut < limit // 3:
            cut = rest.rfind("\n", 0, limit)
        if cut < limit // 3:
            cut = limit
        piece, rest = rest[:cut], rest[cut:].lstrip("\n")
        if piece.count("```") % 2:  # do not leave a code block open across sections
            piece += "\n```"
            rest = "```\n" + rest
        pieces.append(piece)
    return pieces + ([rest] if rest.strip() else [])


def verdict_text(answer: Answer) -> str:
    v = answer.verdict
    zh = answer.lang == "zh"
    if v is None or v.fits is None:
        first = next((line for line in answer.answer.splitlines() if line.strip()), "gpu-advisor")
        return re.sub(r"[*#`]", "", first).strip()[:HEADER_MAX]
    fit = ("放得下" if zh else "fits") if v.fits else ("放不下" if zh else "does not fit")
    mark = "✅" if v.fits else "❌"
    per_gpu = f" ({v.per_gpu_gb:.1f} GB/GPU)" if v.per_gpu_gb is not None else ""
    need = "" if v.fits or not v.min_gpus else (f"，至少 {v.min_gpus} 张" if zh else f", needs at least {v.min_gpus}")
    return f"{mark} {v.method or ''} · {v.num_gpus or 1}× {v.gpu}: {fit}{per_gpu}{need}"[:HEADER_MAX]


def answer_blocks(answer: Answer) -> list[dict]:
    zh = answer.lang == "zh"
    blocks: list[dict] = [{"type": "header", "text": {"type": "plain_text", "text": verdict_text(answer), "emoji": True}}]
    if answer.options:
        fields = []
        for o in answer.options[:10]:
            label = " · ".join(x for x in (o.method, f"{o.num_gpus}× {o.gpu}" if o.gpu else None) if x)
            fit = "-" if o.fits is None else ("✅ " + ("放得下" if zh else "fits")) if o.fits else ("❌ " + ("放不下" if zh else "no"))
            gb = "" if o.per_gpu_gb is None else f" · {o.per_gpu_gb:.1f} GB/GPU"
            need = "" if o.fits or not o.min_gpus else (f" · 至少 {o.min_gpus} 张" if zh else f" · min {o.min_gpus}")
            fields.append({"type": "mrkdwn", "text": f"*{label}*\n{fit}{gb}{need}"[:FIELD_MAX]})
        blocks.append({"type": "section", "fields": fields})
    breakdown = next((c.result.get("breakdown_gb") for c in answer.tool_calls
                      if c.name in ("size_train", "size_infer") and isinstance(c.result.get("breakdown_gb"), dict)), None)
    if breakdown:
        width = max(map(len, breakdown))
        table = "\n".join(f"{k.ljust(width)}  {v:8.2f} GB" for k, v in breakdown.items() if v)
        title = "每卡显存构成（首个方案）" if zh else "Memory per GPU, first option"
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": f"*{title}*\n```\n{table}\n```"[:SECTION_MAX]}})
    if answer.citations:
        items = [f"📎 {c.title[:120]} — `{c.source}`" + (f" ({c.as_of})" if c.as_of else "") for c in answer.citations]
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": t[:2000]} for t in items[:CONTEXT_MAX]]})
    if answer.warnings:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": f"⚠️ {w}"[:2000]}
                                                       for w in answer.warnings[:CONTEXT_MAX]]})
    blocks.append({"type": "divider"})
    details = "详细说明与假设" if zh else "Details and assumptions"
    blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": f"*{details}* ↓"}]})
    text = to_mrkdwn(answer.answer)
    if len(text) > ANSWER_MAX:
        cut = ("（回答过长，只显示前 {n:,} 个字符；完整内容请用网页聊天或 API）" if zh else
               "(answer cut at {n:,} characters; the web chat and the API have the full text)").format(n=ANSWER_MAX)
        head = text[:ANSWER_MAX]
        head = head.rsplit("\n\n", 1)[0] if "\n\n" in head else head  # at a paragraph: no table or fence cut open
        if head.count("```") % 2:
            head += "\n```"
        text = head + "\n\n… " + cut
    for piece in _chunks(text, SECTION_MAX):
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": piece}})
    return blocks


def split_messages(blocks: list[dict]) -> list[list[dict]]:
    """Messages of at most 50 blocks each (Slack's limit), at most MESSAGES_MAX of them."""
    return [blocks[i:i + BLOCKS_PER_MESSAGE] for i in range(0, len(blocks), BLOCKS_PER_MESSAGE)][:MESSAGES_MAX] or [[]]


def fallback_text(answer: Answer) -> str:
    """The notification / screen-reader text that goes with the blocks."""
    return verdict_text(answer)
