"""The one entry point: ask(question) -> Answer, for every surface. Sessions keep follow-up slots."""
from __future__ import annotations

import json
import logging
from pathlib import Path

from assistant.answer import Answer
from assistant.compose import T
from assistant.context import Deps
from assistant.planner import plan_message
from assistant.readers.rules import question_lang, read

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


def llm_mode(mode: str | None = None) -> str:
    """How an LLM backend is used: 'reader' (default: it fills the Request, the planner answers) or 'agent'
    (it calls the tools and writes the prose, held to their numbers). GPU_ADVISOR_LLM_MODE sets it."""
    import os

    mode = mode or os.environ.get("GPU_ADVISOR_LLM_MODE") or "reader"
    if mode not in ("reader", "agent"):
        raise ValueError(f"unknown LLM mode {mode!r}; use reader or agent (GPU_ADVISOR_LLM_MODE)")
    return mode


def ask(text: str, *, lang: str | None = None, history: list[dict] | None = None, deps: Deps | None = None,
        backend: str = "rules", chat_model=None, mode: str | None = None) -> Answer:
    """Answer one message; `history` holds earlier turns' requests (the last one is inherited by follow-ups).

    backend: rules (default), auto, openai:MODEL or ollama:MODEL; chat_model overrides the model (tests);
    mode: reader (default) or agent, for LLM backends."""
    deps = deps or default_deps()
    text = (text or "").strip()
    if not text:
        lang = lang or "en"
        return Answer(answer=T(lang, "empty"), lang=lang, intent="out_of_scope", warnings=["empty message"])
    previous = history[-1] if history else None
    try:
        reading = read(text, deps.catalog, previous)
        request = reading.request if not lang else reading.request.model_copy(update={"lang": lang})
        answer = plan_message(request, deps, text, reading.invalid)
    except Exception:  # a bug reading or planning: said plainly and logged, never a traceback; nothing is lost
        logging.getLogger(__name__).exception("answering failed on %r", text[:200])
        lang = lang or question_lang(text)
        return Answer(answer=T(lang, "internal_error"), lang=lang, intent="out_of_scope", status="error",
                      warnings=["internal error while answering; logged"])
    answer = answer.model_copy(update={"warnings": reading.warnings + answer.warnings, "backend": "rules"})
    backend = resolve_backend(backend) if chat_model is None else backend
    if backend == "rules":
        return answer
    try:
        mode = llm_mode(mode)
    except ValueError as e:
        return answer.model_copy(update={"warnings": answer.warnings + [f"{e}; answered by the rules backend"]})
    if mode == "agent" and (answer.intent == "out_of_scope" or answer.status != "answered"):
        return answer  # a question back or an input error needs no LLM prose
    from assistant.llm import make_chat_model, run_agent

    try:
        model = chat_model or make_chat_model(backend)
    except ImportError as e:
        return answer.model_copy(update={"warnings": answer.warnings + [
            f"the LLM backend needs the llm extra ({LLM_INSTALL_HINT}): {e}; answered by the rules backend"]})
    except ValueError as e:
        return answer.model_copy(update={"warnings": answer.warnings + [f"{e}; answered by the rules backend"]})
    if mode == "reader":
        return _llm_reader_answer(text, reading, previous, deps, model, backend, lang, answer)
    return run_agent(text, answer, deps, model, backend)


LLM_INSTALL_HINT = "from this checkout: make llm, or .venv/bin/pip install -e '.[llm]'"


def _llm_reader_answer(text, reading, previous, deps: Deps, model, backend: str, lang, rules_answer: Answer) -> Answer:
    """The planner's answer to the Request the LLM read; the rules reader's answer when the LLM's form fails."""
    from assistant.llm_limits import bounded
    from assistant.readers.llm import disagreements, read_with_llm

    try:
        llm_reading = bounded(lambda: read_with_llm(text, model, deps.catalog, reading, previous))
    except Exception as e:  # time-out, HTTP error, malformed or invalid form: the rules reading stands
        reason = str(e).split("\n")[0][:200] or type(e).__name__
        return rules_answer.model_copy(update={"warnings": rules_answer.warnings + [
            f"LLM reader {backend} failed ({type(e).__name__}: {reason}); answered from the rules reader's reading"]})
    request = llm_reading.request if not lang else llm_reading.request.model_copy(update={"lang": lang})
    answer = plan_message(request, deps, text, llm_reading.invalid)
    diff = disagreements(request, reading.request)
    notes = [f"the LLM and rules readers disagree ({'; '.join(diff[:6])}); the LLM reader's reading was used"] if diff else []
    return answer.model_copy(update={"backend": backend, "reader": "llm",
                                     "warnings": llm_reading.warnings + notes + answer.warnings})


def _mode_or_none() -> str | None:
    try:
        return llm_mode()
    except ValueError:
        return None


def session_turn(text: str, answer: Answer) -> dict:
    """What a conversation keeps of one exchange: the question (capped like the parser caps it), slots, intent."""
    import time

    from assistant.readers.rules import MAX_QUESTION_CHARS

    return {"question": (text or "")[:MAX_QUESTION_CHARS], "slots": answer.slots, "intent": answer.intent,
            "at": round(time.time(), 3)}


def ask_in_session(text: str, session_file: Path, **kw) -> Answer:
    """ask() with the conversation kept in a JSON file (consecutive calls continue one conversation)."""
    history: list[dict] = []
    if session_file.is_dir():
        raise ValueError(f"--session {session_file} is a folder: give a file, e.g. {session_file / 'chat.json'}")
    if not session_file.parent.is_dir():
        raise ValueError(f"--session {session_file}: the folder {session_file.parent} does not exist")
    if session_file.exists():
        try:
            data = json.loads(session_file.read_text(encoding="utf-8"))
            history = data["turns"]
            if not isinstance(history, list) or not all(isinstance(t, dict) and "slots" in t for t in history):
                raise ValueError
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise ValueError(f"--session {session_file} is not a gpu-advisor session file (JSON with 'turns'); it was "
                             "left as it is: give a new file name to start a conversation") from None
    answer = ask(text, history=[t["slots"] for t in history], **kw)
    history.append(session_turn(text, answer))
    session_file.write_text(json.dumps({"turns": history[-50:]}, ensure_ascii=False, indent=1), encoding="utf-8")
    return answer


def ask_events(text: str, *, backend: str = "rules", chat_model=None, **kw):
    """Events for streaming surfaces: {"type": "token", "text"} pieces of Markdown, {"type": "reset"}
    when streamed LLM prose was rejected (the rules answer follows), and {"type": "answer"} last."""
    resolved = resolve_backend(backend) if chat_model is None else backend
    if resolved != "rules" and _mode_or_none() == "reader":  # the reader fills a form: nothing to stream until it is read
        rules = ask(text, backend=resolved, chat_model=chat_model, mode="reader", **kw)
        resolved = "rules"
    else:
        rules = ask(text, backend="rules", **kw)
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
