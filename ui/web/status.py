"""Settings for people: the backend, the retrieval index and the session store as status badges with one line each."""
from __future__ import annotations

OK, WAIT, BAD = "🟢", "🟡", "🔴"


def backend_badge(health: dict, lang: str) -> str:
    zh = lang == "zh"
    name = health.get("backend", "rules")
    if name == "rules":
        return (f"{OK} **回答引擎：规则规划器**（本机运行、不联网；每个数字都由计算工具给出）" if zh else
                f"{OK} **Answers: the rules planner** (in process, no network; every number comes from a calculator)")
    mark = OK if health.get("ok") else BAD
    detail = health.get("detail", "")
    return (f"{mark} **回答引擎：{name}**（大模型读题，数字仍由工具计算）：{detail}" if zh else
            f"{mark} **Answers: {name}** (an LLM reads the question; the tools still compute every number): {detail}")


def index_badge(summary: dict, lang: str) -> str:
    zh = lang == "zh"
    if summary.get("error"):
        return f"{BAD} **{'检索索引' if zh else 'Retrieval index'}**: {summary['error']}"
    chunks = summary.get("chunks") or summary.get("indexed") or 0
    if not summary.get("ready") and not chunks:
        return (f"{WAIT} **检索索引：尚未加载**（第一次提问或点“检查索引”时加载，几秒钟）" if zh else
                f"{WAIT} **Retrieval index: not loaded yet** (it loads on the first question or on “check index”, "
                "a few seconds)")
    return (f"{OK} **检索索引：{chunks:,} 段**（规格表、模型表、价格表与说明文档；关键词 + 语义检索）" if zh else
            f"{OK} **Retrieval index: {chunks:,} passages** (GPU, model and price tables and the notes; keyword + "
            "semantic search)")


def sessions_badge(described: str, ok: bool, lang: str) -> str:
    zh = lang == "zh"
    kind = described.split(" ")[0]
    where = {"sqlite": ("本机 SQLite 文件", "a SQLite file on this machine"),
             "redis": ("Redis（多副本共享）", "Redis (shared by replicas)")}.get(kind, (kind, kind))
    if not ok:
        return (f"{BAD} **对话记录：{where[0]} 无法连接**：照常回答，但不带上文，恢复后自动继续" if zh else
                f"{BAD} **Conversations: {where[1]} unreachable**: answers continue without earlier turns and "
                "recover by themselves")
    return f"{OK} **对话记录：{where[0]}**" if zh else f"{OK} **Conversations: {where[1]}**"
