"""LLM work stops when its answer is given up: the client went away, or the budget was spent.

The caller stops waiting at once, and the abandoned work starts no further model calls (an agent looping on
tool calls used to keep going for minutes after the client had left)."""
from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage

from assistant.llm_limits import LLMLimit, bounded, cancel_on, checkpoint
from assistant.service import ask

Q = "Is one A100 80GB enough for QLoRA of Llama 3.1 70B?"
CALL = {"model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb", "num_gpus": 1}


def stepper(steps: list[int]):
    def work():
        for i in range(200):
            checkpoint()
            steps.append(i)
            time.sleep(0.02)
        return "done"
    return work


def test_the_caller_stops_waiting_and_the_work_stops_when_the_client_goes_away():
    steps: list[int] = []
    gone = threading.Event()
    threading.Timer(0.3, gone.set).start()
    t0 = time.monotonic()
    with cancel_on(gone), pytest.raises(LLMLimit, match="went away"):
        bounded(stepper(steps), budget=30)
    assert time.monotonic() - t0 < 1.5  # not the 30-s budget, not the 4 s the work would take
    seen = len(steps)
    time.sleep(0.3)
    assert seen < 200 and len(steps) <= seen + 1  # at most the step under way when it was told


def test_work_past_the_budget_is_told_to_stop_too():
    steps: list[int] = []
    with pytest.raises(LLMLimit, match="budget"):
        bounded(stepper(steps), budget=0.3)
    seen = len(steps)
    time.sleep(0.3)
    assert len(steps) <= seen + 1


def test_work_that_finishes_in_time_is_returned_and_the_event_left_unset_changes_nothing():
    with cancel_on(threading.Event()):
        assert bounded(lambda: 42, budget=5) == 42


class EndlessSlowModel(BaseChatModel):
    """A model that always asks for one more tool call, each reply taking 0.15 s (counts its calls)."""

    calls: list = []

    @property
    def _llm_type(self) -> str:
        return "endless-slow"

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        from langchain_core.outputs import ChatGeneration, ChatResult

        time.sleep(0.15)
        self.calls.append(time.monotonic())
        msg = AIMessage(content="", tool_calls=[{"name": "size_train", "id": f"c{len(self.calls)}", "args": CALL}])
        return ChatResult(generations=[ChatGeneration(message=msg)])


@pytest.fixture
def agent_mode(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_MODE", "agent")
    monkeypatch.setenv("GPU_ADVISOR_LLM_BUDGET_S", "20")


def test_an_agent_whose_client_went_away_makes_no_further_model_calls(agent_mode):
    ask(Q)  # warm: the catalog and index are built before the clock starts
    model = EndlessSlowModel(calls=[])
    gone = threading.Event()
    threading.Timer(0.4, gone.set).start()
    t0 = time.monotonic()
    with cancel_on(gone):
        a = ask(Q, backend="openai:endless", chat_model=model)
    assert time.monotonic() - t0 < 2
    assert a.backend == "rules" and any("went away" in w for w in a.warnings)
    made = len(model.calls)
    time.sleep(0.6)  # four more replies' worth of time
    assert len(model.calls) <= made + 1


def test_an_endless_agent_is_cut_at_the_budget_and_stops(agent_mode, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_BUDGET_S", "0.5")
    model = EndlessSlowModel(calls=[])
    a = ask(Q, backend="openai:endless", chat_model=model)
    assert a.backend == "rules" and any("budget" in w for w in a.warnings)
    made = len(model.calls)
    time.sleep(0.6)
    assert len(model.calls) <= made + 1


def _post_then_hang_up(app, payload: dict, after_s: float) -> tuple[list[dict], float]:
    """POST /api/ask at the ASGI level; the client disconnects `after_s` seconds after sending the body."""
    body = json.dumps(payload).encode()
    sent: list[dict] = []
    pending = [{"type": "http.request", "body": body, "more_body": False}]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "path": "/api/ask",
             "raw_path": b"/api/ask", "query_string": b"", "root_path": "", "scheme": "http",
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 7860)}

    async def main():
        t0 = time.monotonic()

        async def receive():
            if pending:
                return pending.pop(0)
            if time.monotonic() - t0 >= after_s:
                return {"type": "http.disconnect"}
            await asyncio.sleep(3600)  # Starlette polls with an already-cancelled scope: nothing to read yet

        async def send(message):
            sent.append(message)

        await app(scope, receive, send)
        return time.monotonic() - t0

    return sent, asyncio.run(main())


def test_api_client_that_hangs_up_stops_its_llm_work_and_the_turn_is_kept(agent_mode, monkeypatch, tmp_path):
    from assistant import llm
    from ui.ratelimit import RateLimit
    from ui.server import ServeSettings, create_app
    from ui.sessions import SQLiteSessionStore

    ask(Q)  # warm
    model = EndlessSlowModel(calls=[])
    monkeypatch.setattr(llm, "make_chat_model", lambda spec: model)
    store = SQLiteSessionStore(tmp_path / "s.sqlite3")
    app = create_app(ServeSettings(backend="openai:endless", rate_limit=RateLimit(per_minute=0)), store=store,
                     with_ui=False)
    sent, took = _post_then_hang_up(app, {"message": Q}, after_s=0.5)
    assert took < 3  # the 20-s budget was not waited out
    made = len(model.calls)
    time.sleep(0.6)
    assert len(model.calls) <= made + 1
    reply = json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))
    assert any("went away" in w for w in reply["warnings"]) and reply["backend"] == "rules", reply["warnings"]
    turns = store.history(reply["session_id"])  # nothing is lost: the turn (the rules answer's slots) is kept
    assert len(turns) == 1 and turns[0]["intent"] == "training_memory"
