"""The one entry point: ask(question) -> Answer, for every surface. Sessions keep follow-up slots."""
from __future__ import annotations

import json
from pathlib import Path

from assistant.answer import Answer
from assistant.compose import T
from assistant.parse import parse
from assistant.planner import Deps, plan

_DEPS: Deps | None = None


def default_deps() -> Deps:
    """Deps built once per process."""
    global _DEPS
    if _DEPS is None:
        from knowledge.catalog import default_catalog

        _DEPS = Deps(default_catalog())
    return _DEPS


def ask(text: str, *, lang: str | None = None, history: list[dict] | None = None, deps: Deps | None = None,
        backend: str = "rules") -> Answer:
    """Answer one message; `history` holds earlier turns' slots (the last one is inherited by follow-ups)."""
    deps = deps or default_deps()
    text = (text or "").strip()
    if not text:
        lang = lang or "en"
        return Answer(answer=T(lang, "empty"), lang=lang, intent="out_of_scope", warnings=["empty message"])
    previous = history[-1] if history else None
    intent, slots, warnings = parse(text, deps.catalog, previous)
    if lang:
        slots["lang"] = lang
    answer = plan(intent, slots, deps, text)
    if backend != "rules":
        warnings.append(f"backend {backend!r} is not available yet; answered by the rules backend")
    return answer.model_copy(update={"warnings": warnings + answer.warnings, "backend": "rules"})


def ask_in_session(text: str, session_file: Path, **kw) -> Answer:
    """ask() with the conversation kept in a JSON file (consecutive calls continue one conversation)."""
    history: list[dict] = []
    if session_file.exists():
        try:
            history = json.loads(session_file.read_text(encoding="utf-8")).get("turns", [])
        except (ValueError, AttributeError):
            history = []
    answer = ask(text, history=[t["slots"] for t in history], **kw)
    history.append({"question": text[:4000], "slots": answer.slots, "intent": answer.intent})
    session_file.write_text(json.dumps({"turns": history[-50:]}, ensure_ascii=False, indent=1), encoding="utf-8")
    return answer
