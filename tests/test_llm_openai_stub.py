"""The real langchain-openai HTTP path against a local OpenAI-compatible stub on 127.0.0.1."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from assistant import llm
from assistant.service import ask


@pytest.fixture(autouse=True)
def agent_mode(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_MODE", "agent")  # these tests drive the tool-calling agent mode


Q = "Is one A100 80GB enough for QLoRA of Llama 3.1 70B?"


def _completion(message: dict) -> dict:
    return {"id": "cmpl-1", "object": "chat.completion", "created": 0, "model": "stub",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


class Stub:
    """Serves scripted responses: dicts become completions, ints become HTTP errors, ('sleep', s) stalls."""

    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                stub.requests.append(body)
                item = stub.script.pop(0) if stub.script else {"role": "assistant", "content": "done"}
                if isinstance(item, tuple):
                    time.sleep(item[1])
                    item = {"role": "assistant", "content": "late"}
                if isinstance(item, int):
                    self.send_response(item)
                    self.end_headers()
                    self.wfile.write(b'{"error": {"message": "stub failure"}}')
                    return
                data = json.dumps(_completion(item)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class QuietServer(ThreadingHTTPServer):
            def handle_error(self, request, client_address):  # a client that timed out hung up: expected here
                pass

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()


@pytest.fixture
def stub(monkeypatch):
    made = []

    def start(script, timeout=10.0):
        s = Stub(script)
        made.append(s)
        monkeypatch.setenv("OPENAI_BASE_URL", s.url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.setenv("GPU_ADVISOR_LLM_BUDGET_S", str(timeout))  # the HTTP time-out is the answer budget
        return s
    yield start
    for s in made:
        s.close()


def tool_call(args: dict, call_id: str = "call_1") -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "size_train", "arguments": json.dumps(args)}}]}


ARGS = {"model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb", "num_gpus": 1}


def test_tool_call_then_grounded_answer_over_http(stub):
    gb = ask(Q).verdict.per_gpu_gb
    s = stub([tool_call(ARGS), {"role": "assistant", "content": f"QLoRA fits one A100 80GB at {gb:.1f} GB."}])
    a = ask(Q, backend="openai:stub-model")
    assert a.backend == "openai:stub-model" and f"{gb:.1f}" in a.answer
    assert s.requests[0]["model"] == "stub-model" and s.requests[0]["tools"]
    assert any(m.get("role") == "tool" for m in s.requests[1]["messages"])   # the tool result went back


def test_wrong_number_over_http_is_rejected(stub):
    stub([tool_call(ARGS), {"role": "assistant", "content": "It fits at 12.5 GB."}])
    a = ask(Q, backend="openai:stub-model")
    assert a.backend == "rules" and any("12.5 not found" in w for w in a.warnings)


def test_malformed_json_arguments_do_not_crash(stub):
    bad = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "size_train", "arguments": "{not json"}}]}
    stub([bad, {"role": "assistant", "content": "It fits."}])
    a = ask(Q, backend="openai:stub-model")
    assert a.verdict.fits is True   # answered, by the model or by the rules fallback, never a traceback


def test_http_500_falls_back_to_rules(stub):
    stub([500, 500, 500, 500])
    a = ask(Q, backend="openai:stub-model")
    assert a.backend == "rules" and any("failed" in w for w in a.warnings)


def test_slow_endpoint_times_out_and_falls_back(stub):
    stub([("sleep", 3), ("sleep", 3), ("sleep", 3)], timeout=0.5)
    t0 = time.perf_counter()
    a = ask(Q, backend="openai:stub-model")
    assert a.backend == "rules" and any("failed" in w for w in a.warnings)
    assert time.perf_counter() - t0 < 10


def test_eval_runs_unchanged_against_an_llm_backend_and_counts_guard_interventions(stub, tmp_path):
    from evals import run as ev

    (tmp_path / "one.yaml").write_text("""
- id: llm-1
  lang: en
  turns: ["Is one A100 80GB enough for QLoRA of Llama 3.1 70B?"]
  expect: {intent: training_memory, verdict: {fits: true, method: qlora}}
  derivation: "NF4 70B ~40-50 GB < 85.1 GB usable"
""", encoding="utf-8")
    stub([tool_call(ARGS), {"role": "assistant", "content": "It fits at 12.5 GB."}])
    results = ev.run(ev.load_cases(tmp_path / "one.yaml"), backend="openai:stub-model", progress=False)
    summary = ev.summarise(results)
    assert summary["passed"] == 1                 # the verdict comes from the tools, whatever the prose said
    assert summary["guard_interventions"] == 1    # and the guard's rejection of 12.5 GB is counted


def test_reader_mode_over_http_fills_the_form_with_json_output(stub):
    form = {"intent": "training_memory", "method": "qlora", "model": "llama-3.1-70b", "gpu": "a100-80gb", "num_gpus": 1}
    s = stub([{"role": "assistant", "content": json.dumps(form)}])
    a = ask(Q, backend="openai:stub", mode="reader")
    assert a.backend == "openai:stub" and a.reader == "llm" and a.verdict.fits is True and a.verdict.method == "qlora"
    sent = s.requests[0]
    assert "response_format" in sent or "tools" in sent  # structured output was asked for, not free prose
    assert "training_memory" in json.dumps(sent)  # the form's schema travelled with the request


def test_reader_mode_over_http_survives_prose_instead_of_json(stub):
    stub([{"role": "assistant", "content": "Sure! The user wants to know about QLoRA."}])
    a = ask(Q, backend="openai:stub", mode="reader")
    assert a.backend == "rules" and any("LLM reader openai:stub failed" in w for w in a.warnings)
    assert a.verdict.fits is True  # the rules reader's answer
