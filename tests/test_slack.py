"""The Slack adapter over HTTP, offline: requests signed exactly as Slack signs them, a local Web API stub
(SLACK_API_URL) recording what the bot posts."""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from urllib.parse import parse_qs, urlencode

import httpx
import pytest
from fastapi import FastAPI, Request, WebSocket

from ui.ratelimit import RateLimit
from ui.server import AppContext, ServeSettings
from ui.sessions import SQLiteSessionStore
from ui.slack.app import SlackSettings, build_app, http_asgi, question_of
from ui.slack.blocks import SECTION_MAX, answer_blocks, split_messages, to_mrkdwn


@pytest.fixture(autouse=True)
def agent_mode(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_MODE", "agent")  # these tests drive the tool-calling agent mode


SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


class SlackStub:
    """Slack's Web API on 127.0.0.1: records every call, answers ok."""

    def __init__(self):
        self.calls: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        self.app = FastAPI()

        @self.app.post("/api/{method}")
        async def method(method: str, request: Request):
            raw = (await request.body()).decode()
            if request.headers.get("content-type", "").startswith("application/json"):
                args = json.loads(raw or "{}")
            else:
                args = {k: v[0] for k, v in parse_qs(raw).items()}
            if isinstance(args.get("blocks"), str):
                args["blocks"] = json.loads(args["blocks"])
            with self.lock:
                self.calls.append((method, args))
            return {"ok": True, "ts": f"1700000999.{len(self.calls):06d}", "channel": args.get("channel")}

    def posts(self):
        with self.lock:
            return [a for m, a in self.calls if m == "chat.postMessage"]

    def wait_posts(self, n: int, timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.posts()) >= n:
                return self.posts()
            time.sleep(0.05)
        raise AssertionError(f"expected {n} chat.postMessage calls, got {self.calls}")


def sign(body: str, ts: int | None = None, secret: str = SECRET) -> dict:
    ts = int(time.time()) if ts is None else ts
    base = f"v0:{ts}:{body}".encode()
    return {"X-Slack-Request-Timestamp": str(ts),
            "X-Slack-Signature": "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()}


def mention(text: str, ts: str, event_id: str, thread_ts: str | None = None, channel: str = "C1") -> str:
    event = {"type": "app_mention", "user": "U1", "text": text, "ts": ts, "channel": channel, "event_ts": ts}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return json.dumps({"token": "legacy", "team_id": "T1", "api_app_id": "A1", "event": event, "type": "event_callback",
                       "event_id": event_id, "event_time": int(time.time())})


@pytest.fixture
def slack(tmp_path, live_server):
    stub = SlackStub()
    stub_url = live_server(stub.app)
    ctx = AppContext(ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0)),
                     store=SQLiteSessionStore(tmp_path / "s.sqlite3"))
    settings = SlackSettings(bot_token="xoxb-test-token", signing_secret=SECRET, app_token=None,
                             api_url=stub_url + "/api/", bot_user_id="UBOT")
    base = live_server(http_asgi(build_app(settings, ctx, http=True)))
    return base, stub


def post_event(base: str, body: str, headers: dict | None = None, content_type: str = "application/json"):
    return httpx.post(base + "/slack/events", content=body, timeout=30,
                      headers={"Content-Type": content_type} | (headers if headers is not None else sign(body)))


def test_mention_is_acked_fast_and_answered_in_the_thread(slack):
    base, stub = slack
    body = mention("<@UBOT> A100够不够微调70B？", "1700000000.000100", "Ev1")
    t0 = time.perf_counter()
    r = post_event(base, body)
    assert r.status_code == 200 and time.perf_counter() - t0 < 3.0       # Slack wants the ack within 3 s
    (post,) = stub.wait_posts(1)
    assert post["channel"] == "C1" and post["thread_ts"] == "1700000000.000100"
    header = post["blocks"][0]
    assert header["type"] == "header" and "qlora" in header["text"]["text"] and "放得下" in header["text"]["text"]
    fields = post["blocks"][1]["fields"]
    assert any("lora · 1× a100-80gb" in f["text"] and "放不下" in f["text"] for f in fields)
    assert "xoxb-test-token" not in json.dumps(post)


def test_a_follow_up_in_the_thread_continues_the_conversation(slack):
    base, stub = slack
    post_event(base, mention("<@UBOT> A100够不够微调70B？", "1700000000.000100", "Ev1"))
    stub.wait_posts(1)
    post_event(base, mention("<@UBOT> 那H100呢？", "1700000000.000300", "Ev2", thread_ts="1700000000.000100"))
    second = stub.wait_posts(2)[1]
    assert second["thread_ts"] == "1700000000.000100"
    assert "h100" in second["blocks"][0]["text"]["text"]                 # the 70B model carried over from the thread


def test_retries_are_not_answered_twice(slack):
    base, stub = slack
    body = mention("<@UBOT> A100够不够微调70B？", "1700000000.000100", "Ev1")
    assert post_event(base, body).status_code == 200
    stub.wait_posts(1)
    for n in (1, 2):
        retry = post_event(base, body, sign(body) | {"X-Slack-Retry-Num": str(n), "X-Slack-Retry-Reason": "http_timeout"})
        assert retry.status_code == 200
    time.sleep(1.5)
    assert len(stub.posts()) == 1


def test_forged_and_stale_requests_are_rejected(slack):
    base, stub = slack
    body = mention("<@UBOT> A100够不够微调70B？", "1700000000.000100", "Ev9")
    assert post_event(base, body, sign(body, secret="not-the-secret")).status_code == 401
    assert post_event(base, body, sign(body, ts=int(time.time()) - 6 * 60)).status_code == 401   # older than 5 min
    assert post_event(base, body, {}).status_code == 401                                          # unsigned
    tampered = body.replace("A100", "H100")
    assert post_event(base, tampered, sign(body)).status_code == 401                              # body changed
    time.sleep(1.0)
    assert stub.posts() == []


def test_url_verification_challenge(slack):
    base, _ = slack
    body = json.dumps({"token": "legacy", "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
                       "type": "url_verification"})
    r = post_event(base, body)
    assert r.status_code == 200 and "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" in r.text


def test_slash_command(slack):
    base, stub = slack
    body = urlencode({"command": "/gpu", "text": "How many H100s for a full fine-tune of Llama 3.1 70B?",
                      "channel_id": "C2", "user_id": "U1", "team_id": "T1", "response_url": "https://hooks.invalid/x",
                      "trigger_id": "1.2.3", "token": "legacy"})
    r = post_event(base, body, content_type="application/x-www-form-urlencoded")
    assert r.status_code == 200 and "How many H100s" in r.text                   # the ack echoes the question
    (post,) = stub.wait_posts(1)
    assert post["channel"] == "C2" and post["blocks"][0]["type"] == "header"
    assert "full" in post["blocks"][0]["text"]["text"] and "h100" in post["blocks"][0]["text"]["text"]


def test_direct_message_and_an_empty_mention(slack):
    base, stub = slack
    dm = json.dumps({"team_id": "T1", "type": "event_callback", "event_id": "Ev5", "event": {
        "type": "message", "channel_type": "im", "user": "U1", "text": "How much memory does Qwen2.5-72B need at 32k context?",
        "ts": "1700000000.000500", "channel": "D1"}})
    post_event(base, dm)
    (post,) = stub.wait_posts(1)
    assert post["channel"] == "D1" and post["blocks"][0]["type"] == "header"
    post_event(base, mention("<@UBOT>", "1700000000.000600", "Ev6"))
    empty = stub.wait_posts(2)[1]
    assert empty["thread_ts"] == "1700000000.000600" and "ask a question after the mention" in empty["text"]


def test_blocks_stay_within_slack_limits():
    from assistant.service import ask

    answer = ask("A100够不够微调70B？")
    long = answer.model_copy(update={"answer": ("| a | b |\n|---|---|\n" + "| x | 1 |\n" * 40 + "\n" + "word " * 900) * 8})
    blocks = answer_blocks(long)
    for b in blocks:
        if b["type"] == "section" and "text" in b:
            assert len(b["text"]["text"]) <= SECTION_MAX and b["text"]["text"].count("```") % 2 == 0
        if b["type"] == "header":
            assert len(b["text"]["text"]) <= 150
    assert all(len(m) <= 50 for m in split_messages(blocks))


def test_markdown_becomes_mrkdwn():
    assert to_mrkdwn("**fits** here") == "*fits* here"
    assert to_mrkdwn("- one\n- two") == "• one\n• two"
    table = to_mrkdwn("| GPU | GB |\n|---|---|\n| h100 | 80 |")
    assert table == "```\nGPU   GB\nh100  80\n```"
    assert question_of("<@U123ABC> A100够不够微调70B？") == "A100够不够微调70B？"


def test_missing_secrets_are_named_not_echoed(monkeypatch, capsys):
    from ui.cli import main

    monkeypatch.delenv("SLACK_SIGNING_SECRET", raising=False)
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-should-not-appear")
    assert main(["slack", "--http"]) == 2
    err = capsys.readouterr().err
    assert "needs SLACK_SIGNING_SECRET" in err and "xoxb-should-not-appear" not in err


def test_slow_llm_backend_shows_a_thinking_reaction(tmp_path, live_server, monkeypatch):
    """With an LLM backend the bot reacts ⌛ while it works and removes it after. Here the 'LLM' is the stub, which
    has no /v1/chat/completions: the agent fails, and the rules answer arrives with a warning instead."""
    stub = SlackStub()
    stub_url = live_server(stub.app)
    monkeypatch.setenv("OPENAI_BASE_URL", stub_url + "/v1")
    ctx = AppContext(ServeSettings(backend="openai:stub-model"), store=SQLiteSessionStore(tmp_path / "s.sqlite3"))
    settings = SlackSettings(bot_token="xoxb-t", signing_secret=SECRET, app_token=None, api_url=stub_url + "/api/")
    base = live_server(http_asgi(build_app(settings, ctx, http=True)))
    post_event(base, mention("<@UBOT> A100够不够微调70B？", "1700000000.000100", "Ev1"))
    (post,) = stub.wait_posts(1, timeout=60)
    assert "放得下" in post["blocks"][0]["text"]["text"]
    assert any("rules backend" in json.dumps(b, ensure_ascii=False) for b in post["blocks"] if b["type"] == "context")
    deadline = time.monotonic() + 10
    while "reactions.remove" not in [m for m, _ in stub.calls] and time.monotonic() < deadline:
        time.sleep(0.05)
    methods = [m for m, _ in stub.calls]
    assert methods.index("reactions.add") < methods.index("chat.postMessage") < methods.index("reactions.remove")
    add = dict(stub.calls)["reactions.add"]
    assert add["name"] == "hourglass_flowing_sand" and add["timestamp"] == "1700000000.000100"


def test_socket_mode_end_to_end_against_a_local_stub(tmp_path, live_server):
    """Socket Mode offline: apps.connections.open (on the stub) hands out a ws:// URL on 127.0.0.1, the stub sends an
    events_api envelope over it, the bot acks the envelope and answers in the thread through the Web API stub."""
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    stub = SlackStub()
    acks: list[dict] = []
    envelope = {"envelope_id": "env-1", "type": "events_api", "accepts_response_payload": False,
                "payload": json.loads(mention("<@UBOT> A100够不够微调70B？", "1700000000.000700", "EvS"))}

    @stub.app.websocket("/link")
    async def link(ws: WebSocket):
        await ws.accept()
        await ws.send_text(json.dumps({"type": "hello", "num_connections": 1}))
        await ws.send_text(json.dumps(envelope))
        while True:
            try:
                acks.append(json.loads(await ws.receive_text()))
            except Exception:
                return

    stub_url = live_server(stub.app)

    @stub.app.post("/api/apps.connections.open")
    async def connections_open():
        return {"ok": True, "url": stub_url.replace("http://", "ws://") + "/link"}

    stub.app.router.routes.insert(0, stub.app.router.routes.pop())  # before the catch-all /api/{method}
    ctx = AppContext(ServeSettings(backend="rules"), store=SQLiteSessionStore(tmp_path / "s.sqlite3"))
    settings = SlackSettings(bot_token="xoxb-t", signing_secret=None, app_token="xapp-t", api_url=stub_url + "/api/")
    app = build_app(settings, ctx, http=False)
    handler = SocketModeHandler(app, settings.app_token, web_client=app.client)
    handler.connect()
    try:
        (post,) = stub.wait_posts(1, timeout=30)
        assert post["thread_ts"] == "1700000000.000700" and "放得下" in post["blocks"][0]["text"]["text"]
        assert {"envelope_id": "env-1"} in acks
    finally:
        handler.close()


def test_malformed_requests_are_refused_without_a_traceback(slack, caplog):
    base, stub = slack
    body = mention("<@UBOT> hi", "1700000000.000200", "Ev42")
    headers = sign(body) | {"X-Slack-Request-Timestamp": "yesterday"}
    assert post_event(base, body, headers).status_code == 401           # a timestamp that is not whole seconds
    broken = '{"type": "event_callback", "event": '                       # cut JSON, correctly signed
    assert post_event(base, broken, sign(broken)).status_code in (400, 401)
    assert "Traceback" not in caplog.text


def test_a_runaway_answer_is_cut_to_a_few_messages():
    from assistant.service import ask
    from ui.slack.blocks import ANSWER_MAX, MESSAGES_MAX

    answer = ask("A100够不够微调70B？")
    huge = answer.model_copy(update={"answer": ("paragraph of words " * 50 + "\n\n") * 10_000})   # ~10 MB
    messages = split_messages(answer_blocks(huge))
    assert len(messages) <= MESSAGES_MAX
    posted = "".join(b["text"]["text"] for m in messages for b in m if b["type"] == "section" and "text" in b)
    assert len(posted) < ANSWER_MAX + 20_000 and "只显示前 12,000 个字符" in posted   # the answer is Chinese
