"""The langchain-ollama path against a local stub of Ollama's /api/chat on 127.0.0.1."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from assistant.service import ask


@pytest.fixture(autouse=True)
def agent_mode(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_MODE", "agent")  # these tests drive the tool-calling agent mode


Q = "Is one A100 80GB enough for QLoRA of Llama 3.1 70B?"


@pytest.fixture
def ollama(monkeypatch):
    def start(script):
        seen: list[dict] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                seen.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                msg = script.pop(0)
                data = (json.dumps({"model": "stub", "created_at": "2026-01-01T00:00:00Z", "message": msg,
                                    "done": True, "done_reason": "stop"}) + "\n").encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{server.server_address[1]}")
        servers.append(server)
        return seen

    servers: list = []
    yield start
    for s in servers:
        s.shutdown()


def test_ollama_tool_call_then_grounded_answer(ollama):
    gb = ask(Q).verdict.per_gpu_gb
    seen = ollama([
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "size_train", "arguments": {
            "model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb", "num_gpus": 1}}}]},
        {"role": "assistant", "content": f"QLoRA fits one A100 80GB at about {gb:.1f} GB."}])
    a = ask(Q, backend="ollama:qwen2.5")
    assert a.backend == "ollama:qwen2.5" and f"{gb:.1f}" in a.answer
    assert seen[0]["model"] == "qwen2.5" and seen[0]["tools"]
    assert any(m["role"] == "tool" for m in seen[1]["messages"])


def test_ollama_wrong_number_is_rejected(ollama):
    ollama([{"role": "assistant", "content": "It needs 314 GB."}])
    a = ask(Q, backend="ollama:qwen2.5")
    # no tool was called, so no figure can stand: rejected before the number-by-number guard
    assert a.backend == "rules" and any("states figures but called no tool" in w for w in a.warnings)
