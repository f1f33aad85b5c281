"""The HTTP API: POST /api/ask and GET /healthz, in process and over a real socket."""
from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from ui.ratelimit import RateLimit
from ui.server import ServeSettings, create_app
from ui.sessions import SQLiteSessionStore

ANSWER_KEYS = {"answer", "lang", "intent", "verdict", "options", "figures", "citations", "tool_calls", "backend",
               "warnings", "slots", "session_id"}
Q70 = "A100够不够微调70B？"


def make_client(tmp_path, **settings) -> TestClient:
    settings = {"backend": "rules", "rate_limit": RateLimit(per_minute=0)} | settings
    app = create_app(ServeSettings(**settings), store=SQLiteSessionStore(tmp_path / "s.sqlite3"), with_ui=False)
    return TestClient(app, raise_server_exceptions=False)


def test_ask_returns_the_answer_object_and_a_session(tmp_path):
    r = make_client(tmp_path).post("/api/ask", json={"message": Q70, "session_id": None, "lang": None})
    assert r.status_code == 200
    body = r.json()
    assert set(body) >= ANSWER_KEYS
    assert body["lang"] == "zh" and body["intent"] == "training_memory"
    # QLoRA of a 70B model fits one A100 80GB; 16-bit LoRA does not (weights alone: 70e9 x 2 B = 140 GB > 80 GB)
    assert body["verdict"]["fits"] is True and body["verdict"]["method"] == "qlora"
    lora = next(o for o in body["options"] if o["method"] == "lora")
    assert lora["fits"] is False and lora["per_gpu_gb"] > 140
    assert body["session_id"]


def test_follow_up_in_the_same_session(tmp_path):
    client = make_client(tmp_path)
    sid = client.post("/api/ask", json={"message": Q70}).json()["session_id"]
    follow = client.post("/api/ask", json={"message": "那H100呢？", "session_id": sid}).json()
    assert follow["session_id"] == sid and follow["verdict"]["gpu"] == "h100" and follow["slots"]["model"] == "70b"


def test_lang_forces_the_answer_language(tmp_path):
    body = make_client(tmp_path).post("/api/ask", json={"message": Q70, "lang": "en"}).json()
    assert body["lang"] == "en" and "fits" in body["answer"]


def test_bad_requests_say_what_is_accepted(tmp_path):
    client = make_client(tmp_path)
    cases = [({"json": {"msg": "x"}}, "message: Field required"),
             ({"content": b"{not json", "headers": {"content-type": "application/json"}}, "not valid JSON"),
             ({"json": {"message": "x", "lang": "fr"}}, "lang"),
             ({"json": {"message": "x", "session_id": "has spaces"}}, "session_id must be"),
             ({"json": {"message": "x", "prices": {"nope-gpu": 2.0}}}, "prices: unknown GPU"),
             ({"json": {"message": "x", "prices": {"h100": -3}}}, "between 0 and 10,000")]
    for kw, needle in cases:
        r = client.post("/api/ask", **kw)
        assert r.status_code == 422, kw
        assert needle in r.json()["error"] and '"message": str' in r.json()["accepted"], r.json()


def test_a_long_message_is_truncated_with_a_notice(tmp_path):
    body = make_client(tmp_path).post("/api/ask", json={"message": Q70 + "x" * 50_000}).json()
    assert body["warnings"][0] == "the message was 50,013 characters; only the first 4,000 were read"  # 13 + 50,000
    assert body["verdict"]["fits"] is True                                  # the question itself was still read


def test_a_body_over_the_limit_is_refused_before_it_is_kept(tmp_path):
    # 100k characters is a ~100 kB body: over the 64 kB default, refused with 413 and what is accepted
    client = make_client(tmp_path)
    r = client.post("/api/ask", json={"message": Q70 + "x" * 100_000})
    assert r.status_code == 413 and "65,536 bytes" in r.json()["error"] and "4,000 characters" in r.json()["error"]

    def chunks():  # no Content-Length: counted as it streams, refused at the limit
        for _ in range(100):
            yield b"x" * 4096
    r = client.post("/api/ask", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert make_client(tmp_path, max_body_bytes=200_000).post(
        "/api/ask", json={"message": Q70 + "x" * 100_000}).status_code == 200


def test_x_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path):
    from ui.limits import client_address

    # a client rotating the header gets nothing: without trusted proxies the socket peer is the key
    assert client_address("203.0.113.9", "1.2.3.4", []) == "203.0.113.9"
    # behind a trusted proxy: the right-most hop that is not a trusted proxy
    assert client_address("10.0.0.5", "198.51.100.7, 10.0.0.4", ["10.0.0.0/8"]) == "198.51.100.7"
    assert client_address("10.0.0.5", "spoofed, 198.51.100.7", ["10.0.0.0/8"]) == "198.51.100.7"
    assert client_address("203.0.113.9", "1.2.3.4", ["10.0.0.0/8"]) == "203.0.113.9"   # peer not trusted
    client = make_client(tmp_path, rate_limit=RateLimit(per_minute=1, burst=2))
    codes = [client.post("/api/ask", json={"message": "hi"}, headers={"x-forwarded-for": f"9.9.9.{i}"}).status_code
             for i in range(4)]
    assert codes[:2] == [200, 200] and 429 in codes[2:]   # rotating the header did not buy new buckets


def test_healthz_shows_no_server_paths(tmp_path):
    h = make_client(tmp_path).get("/healthz").json()
    assert h["sessions"].startswith("sqlite") and "/" not in h["sessions"] and str(tmp_path) not in str(h)


def test_session_prices_change_the_cost(tmp_path):
    client = make_client(tmp_path)
    q = "How long to fine-tune Llama 3.1 8B with LoRA on 100M tokens on 8 H100?"
    table = client.post("/api/ask", json={"message": q}).json()
    mine = client.post("/api/ask", json={"message": q, "prices": {"h100": 1.0}}).json()
    gpu_hours = mine["figures"]["gpu_hours"]
    assert mine["figures"]["cost_usd"] == round(1.0 * gpu_hours)           # cost = your price x GPU-hours
    assert table["figures"]["cost_usd"] != mine["figures"]["cost_usd"]
    assert "your price" in mine["answer"]


def test_healthz(tmp_path):
    body = make_client(tmp_path).get("/healthz").json()
    assert body["status"] == "ok" and body["backend"] == "rules"
    assert "index" in body and body["sessions"] == "sqlite" and body["llm"] == {"configured": False}  # no path


def test_healthz_reports_an_llm_backend_whose_package_is_missing(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "langchain_ollama" else real(name, *a))
    body = make_client(tmp_path, backend="ollama:qwen2.5").get("/healthz").json()
    assert body["status"] == "degraded" and body["llm"]["configured"] and body["llm"]["importable"] is False
    assert "make llm" in body["llm"]["detail"] and body["llm"]["mode"] == "reader"


def test_rate_limit_answers_429_with_retry_after(tmp_path):
    client = make_client(tmp_path, rate_limit=RateLimit(per_minute=6, burst=2))   # 1 request per 10 s after 2
    codes = [client.post("/api/ask", json={"message": "H100 spec"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    r = client.post("/api/ask", json={"message": "H100 spec"})
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 10 and "rate limit" in r.json()["error"]
    assert client.get("/healthz").status_code == 200                         # health checks are not limited


def test_token_guards_api_and_ui(tmp_path):
    client = make_client(tmp_path, token="s3cret")
    r = client.post("/api/ask", json={"message": Q70})
    assert r.status_code == 401 and "Authorization: Bearer" in r.json()["error"] and "s3cret" not in r.text
    assert client.post("/api/ask", json={"message": Q70}, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/api/ask", json={"message": Q70}, headers={"Authorization": "Bearer s3cret"}).status_code == 200
    assert client.get("/healthz").status_code == 200
    page = client.get("/", follow_redirects=False)
    assert page.status_code == 401 and "/?token=" in page.text


def test_token_in_the_url_becomes_a_cookie(tmp_path):
    settings = ServeSettings(backend="rules", token="s3cret", rate_limit=RateLimit(per_minute=0))
    app = create_app(settings, store=SQLiteSessionStore(tmp_path / "s.sqlite3"), with_ui=True)
    client = TestClient(app)
    r = client.get("/?token=s3cret", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/" and "httponly" in r.headers["set-cookie"].lower()
    assert client.get("/").status_code == 200                                # the cookie now opens the UI
    assert client.post("/api/ask", json={"message": Q70}).status_code == 200  # and the API from the same browser


def test_internal_errors_show_no_traceback(tmp_path, monkeypatch):
    client = make_client(tmp_path)

    def boom(*a, **k):
        raise RuntimeError("secret path /etc/shadow")

    monkeypatch.setattr(client.app.state.ctx, "answer", boom)
    r = client.post("/api/ask", json={"message": Q70})
    assert r.status_code == 500 and "reference" in r.json()["error"]
    assert "shadow" not in r.text and "Traceback" not in r.text


def test_over_a_real_socket_with_the_ui_mounted(tmp_path, live_server):
    settings = ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0))
    base = live_server(create_app(settings, store=SQLiteSessionStore(tmp_path / "s.sqlite3")))
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        page = http.get("/")
        assert page.status_code == 200 and "gradio" in page.text.lower()
        first = http.post("/api/ask", json={"message": Q70}).json()
        follow = http.post("/api/ask", json={"message": "那H100呢？", "session_id": first["session_id"]}).json()
        assert follow["verdict"]["gpu"] == "h100" and follow["verdict"]["fits"] is True


def test_sessions_survive_a_server_restart(tmp_path, live_server):
    store_path = tmp_path / "s.sqlite3"
    settings = ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0))
    base1 = live_server(create_app(settings, store=SQLiteSessionStore(store_path), with_ui=False))
    sid = httpx.post(base1 + "/api/ask", json={"message": Q70}, timeout=30).json()["session_id"]
    base2 = live_server(create_app(settings, store=SQLiteSessionStore(store_path), with_ui=False))  # a new process' store
    follow = httpx.post(base2 + "/api/ask", json={"message": "那H100呢？", "session_id": sid}, timeout=30).json()
    assert follow["slots"]["model"] == "70b"


def test_slow_answers_do_not_block_each_other(tmp_path, live_server, monkeypatch):
    """Four requests whose answer takes 1 s each (a slow LLM, say) finish together, not one after another."""
    import concurrent.futures
    import time

    settings = ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0))
    app = create_app(settings, store=SQLiteSessionStore(tmp_path / "s.sqlite3"), with_ui=False)
    real = app.state.ctx.answer

    def slow(*args, **kw):
        time.sleep(1.0)
        return real(*args, **kw)

    monkeypatch.setattr(app.state.ctx, "answer", slow)
    base = live_server(app)
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda _: httpx.post(base + "/api/ask", json={"message": Q70}, timeout=30).status_code,
                              range(4)))
    elapsed = time.perf_counter() - t0
    assert codes == [200] * 4
    assert elapsed < 2.5          # serially it would take at least 4 x 1 s = 4 s


@pytest.mark.parametrize("argv, needle", [
    (["serve", "--port", "0"], "--port: Input should be greater than or equal to 1"),
    (["serve", "--backend", "gpt"], "--backend 'gpt': use auto, rules, openai, ollama"),
    (["serve", "--rate-limit", "fast"], "not a rate limit"),
])
def test_serve_rejects_bad_flags_with_a_message(argv, needle, capsys):
    from ui.cli import main

    assert main(argv) == 2
    assert needle in capsys.readouterr().err


def test_a_session_store_outage_degrades_to_answers_without_history_and_recovers(tmp_path):
    import redis

    class Flaky(SQLiteSessionStore):
        down = False

        def history(self, session_id):
            if self.down:
                raise redis.exceptions.ConnectionError("Error 111 connecting to localhost:6379. Connection refused.")
            return super().history(session_id)

        def append(self, session_id, turn):
            if self.down:
                raise redis.exceptions.ConnectionError("Connection refused.")
            return super().append(session_id, turn)

    store = Flaky(tmp_path / "s.sqlite3")
    app = create_app(ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0)), store=store, with_ui=False)
    client = TestClient(app, raise_server_exceptions=False)
    sid = client.post("/api/ask", json={"message": Q70}).json()["session_id"]
    store.down = True
    r = client.post("/api/ask", json={"message": "那H100呢？", "session_id": sid})
    assert r.status_code == 200 and "unreachable (ConnectionError)" in r.json()["warnings"][0]   # answered, said so
    new = client.post("/api/ask", json={"message": Q70})                                          # new conversations too
    assert new.status_code == 200 and new.json()["verdict"]["fits"] is True
    store.down = False                                                                            # it comes back
    follow = client.post("/api/ask", json={"message": "那H100呢？", "session_id": sid}).json()
    assert follow["verdict"]["gpu"] == "h100" and follow["slots"]["model"] == "70b"              # history again
    assert not any("unreachable" in w for w in follow["warnings"])


def test_session_ids_are_issued_per_surface_and_bound_to_the_caller(tmp_path):
    client = make_client(tmp_path)
    sid = client.post("/api/ask", json={"message": Q70}).json()["session_id"]
    assert sid.startswith("api-")                                            # issued by the server, namespaced
    # a Slack thread's predictable id, a made-up id, or one edited by a character: refused, not read or steered
    for forged in ("slack:T1:C1:1700000000.000100", "api-made-up.sig", sid[:-1] + ("A" if sid[-1] != "A" else "B")):
        r = client.post("/api/ask", json={"message": "那H100呢？", "session_id": forged})
        assert r.status_code == 422 and "not issued to you" in r.json()["error"], forged
    # with an access token, an id is bound to the token that started it
    guarded = make_client(tmp_path, token="tok-A")
    mine = guarded.post("/api/ask", json={"message": Q70}, headers={"Authorization": "Bearer tok-A"}).json()["session_id"]
    ok = guarded.post("/api/ask", json={"message": "那H100呢？", "session_id": mine},
                      headers={"Authorization": "Bearer tok-A"})
    assert ok.status_code == 200 and ok.json()["verdict"]["gpu"] == "h100"
    from ui.sessions import SessionError, verify_session_id
    with pytest.raises(SessionError):
        verify_session_id(mine, "api", "some-other-caller")


def test_a_real_redis_stopped_and_restarted(tmp_path, redis_exe):
    import os
    import socket
    import subprocess
    import time

    from ui.sessions import RedisSessionStore

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def start():
        proc = subprocess.Popen([redis_exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=os.environ.copy())
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return proc
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    server = start()
    try:
        store = RedisSessionStore(f"redis://127.0.0.1:{port}/0")
        app = create_app(ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0)), store=store, with_ui=False)
        client = TestClient(app, raise_server_exceptions=False)
        sid = client.post("/api/ask", json={"message": Q70}).json()["session_id"]
        server.terminate()
        server.wait(10)
        down = client.post("/api/ask", json={"message": "那H100呢？", "session_id": sid})
        assert down.status_code == 200 and "unreachable" in down.json()["warnings"][0]
        assert client.get("/healthz").json()["status"] == "degraded"
        fresh = client.post("/api/ask", json={"message": Q70})
        assert fresh.status_code == 200
        server = start()                                   # back, with no restart of the app
        new = client.post("/api/ask", json={"message": Q70}).json()
        follow = client.post("/api/ask", json={"message": "那H100呢？", "session_id": new["session_id"]}).json()
        assert follow["verdict"]["gpu"] == "h100" and not any("unreachable" in w for w in follow["warnings"])
        assert client.get("/healthz").json()["status"] == "ok"
    finally:
        server.terminate()
        server.wait(10)


def test_api_docs_are_served_offline(tmp_path):
    import re

    client = make_client(tmp_path)
    page = client.get("/api/docs")
    assert page.status_code == 200 and "swagger-ui-bundle.js" in page.text
    # every URL the page loads is on this app's origin: no CDN (offline, and reachable in mainland China)
    urls = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", page.text)
    assert urls and all(u.startswith("/") for u in urls), urls
    for u in urls:
        assert client.get(u).status_code == 200, u


def test_several_asks_come_back_as_asks_and_not_answered(tmp_path):
    r = make_client(tmp_path).post("/api/ask", json={
        "message": "Full fine-tune Llama 3.1 8B on 2 A100 80GB: do we need CPU offload? Also, which RAG framework is best?",
        "session_id": None, "lang": None})
    body = r.json()
    assert r.status_code == 200 and body["status"] == "answered"
    # without offload and with it, compared; the RAG question listed as not answered, with the reason
    assert [a["request"]["offload"] for a in body["asks"]] == ["none", "optimizer"] and body["comparison"]
    assert len(body["not_answered"]) == 1 and body["not_answered"][0]["why"]
