"""The one entry point: ask(question) -> Answer, for every surface. Sessions keep follow-up slots."""
from __future__ import annotations

import json
from pathlib import Path

from assistant.answer import Answer
from assistant.compose import T
from assistant.planner import Deps, plan
from assistant.readers.rules import read

_DEPS: Deps | None = None


def default_deps() -> Deps:
    """Deps built once per process."""
    global _DEPS
    if _DEPS is None:
        from knowledge.catalog import default_catalog

        _DEPS = Deps(default_catalog())
    return _DEPS


def resolve_backend(backend: str | None) -> str:
    """'auto' -> GPU_ADVISOR_LLM when set, else 'rules'; other names pass through."""
    import os

    backend = backend or "auto"
    if backend == "auto":
        return os.environ.get("GPU_ADVISOR_LLM") or "rules"
    if backend in ("openai", "ollama"):
        configured = os.environ.get("GPU_ADVISOR_LLM", "")
        return configured if configured.startswith(backend + ":") else f"{backend}:{os.environ.get('GPU_ADVISOR_MODEL', '')}"
    return backend


def ask(text: str, *, lang: str | None = None, history: list[dict] | None = None, deps: Deps | None = None,
        backend: str = "rules", chat_model=None) -> Answer:
    """Answer one message; `history` holds earlier turns' requests (the last one is inherited by follow-ups).

    backend: rules (default), auto, openai:MODEL or ollama:MODEL; chat_model overrides the model (tests)."""
    deps = deps or default_deps()
    text = (text or "").strip()
    if not text:
        lang = lang or "en"
        return Answer(answer=T(lang, "empty"), lang=lang, intent="out_of_scope", warnings=["empty message"])
    previous = history[-1] if history else None
    reading = read(text, deps.catalog, previous)
    request = reading.request if not lang else reading.request.model_copy(update={"lang": lang})
    answer = plan(request, deps, text, reading.invalid)
    answer = answer.model_copy(update={"warnings": reading.warnings + answer.warnings, "backend": "rules"})
    backend = resolve_backend(backend) if chat_model is None else backend
    if backend == "rules" or answer.intent == "out_of_scope" or answer.status != "answered":
        return answer  # a question back or an input error needs no LLM prose
    from assistant.llm import make_chat_model, run_agent

    try:
        model = chat_model or make_chat_model(backend)
    except ImportError as e:
        return answer.model_copy(update={"warnings": answer.warnings + [
            f"the LLM backend needs the llm extra (pip install 'gpu-advisor[llm]'): {e}; answered by the rules backend"]})
    except ValueError as e:
        return answer.model_copy(update={"warnings": answer.warnings + [f"{e}; answered by the rules backend"]})
    return run_agent(text, answer, deps, model, backend)


def session_turn(text: str, answer: Answer) -> dict:
    """What a conversation keeps of one exchange: the question (capped like the parser caps it), slots, intent."""
    import time

    from assistant.readers.rules import MAX_QUESTION_CHARS

    return {"question": (text or "")[:MAX_QUESTION_CHARS], "slots": answer.slots, "intent": answer.intent,
            "at": round(time.time(), 3)}


def ask_in_session(text: str, session_file: Path, **kw) -> Answer:
    """ask() with the conversation kept in a JSON file (consecutive calls continue one conversation)."""
    history: list[dict] = []
    if session_file.exists():
        try:
            history = json.loads(session_file.read_text(encoding="utf-8")).get("turns", [])
        except (ValueError, AttributeError):
            history = []
    answer = ask(text, history=[t["slots"] for t in history], **kw)
    history.append(session_turn(text, answer))
    session_file.write_text(json.dumps({"turns": history[-50:]}, ensure_ascii=False, indent=1), encoding="utf-8")
    return answer


def ask_events(text: str, *, backend: str = "rules", chat_model=None, **kw):
    """Events for streaming surfaces: {"type": "token", "text"} pieces of Markdown, {"type": "reset"}
    when streamed LLM prose was rejected (the rules answer follows), and {"type": "answer"} last."""
    rules = ask(text, backend="rules", **kw)
    resolved = resolve_backend(backend) if chat_model is None else backend
    if resolved == "rules" or rules.intent == "out_of_scope" or rules.status != "answered":
        for part in rules.answer.split("\n\n"):
            yield {"type": "token", "text": part + "\n\n"}
        yield {"type": "answer", "answer": rules}
        return
    from assistant.llm import make_chat_model, stream_agent

    try:
        model = chat_model or make_chat_model(resolved)
    except (ValueError, ImportError) as e:
        rules = rules.model_copy(update={"warnings": rules.warnings + [f"{e}; answered by the rules backend"]})
        yield {"type": "token", "text": rules.answer}
        yield {"type": "answer", "answer": rules}
        return
    yield from stream_agent(text, rules, kw.get("deps") or default_deps(), model, resolved)
