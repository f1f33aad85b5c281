"""The slack-bolt App: app mentions (answered in the thread), direct messages and `/gpu QUESTION`.

A thread is a session (the same store as the web chat), so follow-ups continue the conversation.
Events are acknowledged at once and answered by Bolt's lazy listeners; Slack's retries of an event
already taken (X-Slack-Retry-Num) are acknowledged and dropped, so nothing is answered twice.
Secrets come from the environment only and are never logged.
"""
from __future__ import annotations

import logging
import os
import re
import threading
from collections import OrderedDict

from fastapi import Request
from pydantic import BaseModel, Field

from ui.slack.blocks import answer_blocks, fallback_text, split_messages

log = logging.getLogger("gpu_advisor.slack")
MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
THINKING = "hourglass_flowing_sand"


class SlackSettings(BaseModel):
    """Read from the environment (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN, SLACK_API_URL)."""

    bot_token: str | None = Field(default_factory=lambda: os.environ.get("SLACK_BOT_TOKEN"), repr=False)
    signing_secret: str | None = Field(default_factory=lambda: os.environ.get("SLACK_SIGNING_SECRET"), repr=False)
    app_token: str | None = Field(default_factory=lambda: os.environ.get("SLACK_APP_TOKEN"), repr=False)
    api_url: str | None = Field(default_factory=lambda: os.environ.get("SLACK_API_URL"))
    bot_user_id: str | None = Field(default_factory=lambda: os.environ.get("SLACK_BOT_USER_ID"))
    backend: str = "auto"

    def missing(self, http: bool) -> list[str]:
        need = {"SLACK_BOT_TOKEN": self.bot_token}
        need |= {"SLACK_SIGNING_SECRET": self.signing_secret} if http else {"SLACK_APP_TOKEN": self.app_token}
        return [k for k, v in need.items() if not v]


class _Seen:
    """Event ids already taken (bounded), the second guard against answering twice."""

    def __init__(self, size: int = 10_000):
        self._ids: OrderedDict[str, None] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def first_time(self, key: str | None) -> bool:
        if not key:
            return True
        with self._lock:
            if key in self._ids:
                return False
            self._ids[key] = None
            if len(self._ids) > self._size:
                self._ids.popitem(last=False)
            return True


def question_of(text: str) -> str:
    """The question without the bot's @-mention."""
    return MENTION.sub(" ", text or "").strip()


def build_app(settings: SlackSettings, ctx, *, http: bool = True):
    """The Bolt App. ctx is a ui.server.AppContext (store, deps, backend): the same assistant as the web chat."""
    from slack_bolt import App
    from slack_bolt.authorization import AuthorizeResult
    from slack_bolt.response import BoltResponse
    from slack_sdk import WebClient

    base_url = (settings.api_url.rstrip("/") + "/") if settings.api_url else WebClient.BASE_URL
    client = WebClient(base_url=base_url, timeout=30)  # the token arrives per request from authorize()

    def authorize(enterprise_id=None, team_id=None, **_):
        # Offline start-up: no auth.test call; the bot token comes from the environment.
        return AuthorizeResult(enterprise_id=enterprise_id, team_id=team_id, bot_token=settings.bot_token,
                               bot_user_id=settings.bot_user_id)

    app = App(signing_secret=settings.signing_secret if http else None, client=client, authorize=authorize,
              request_verification_enabled=http, ssl_check_enabled=False, url_verification_enabled=True,
              name="gpu-advisor")
    seen = _Seen()

    @app.middleware
    def drop_retries(req, next):
        retry = req.headers.get("x-slack-retry-num")
        if retry:
            log.info("dropped Slack retry %s (the first delivery is being answered)", retry[0])
            return BoltResponse(status=200, body="", headers={"x-slack-no-retry": "1"})
        return next()

    slow = ctx.backend != "rules"

    def reply(client, channel: str, thread_ts: str | None, session_id: str, question: str, react_ts: str | None):
        if slow and react_ts:
            _try(client.reactions_add, channel=channel, name=THINKING, timestamp=react_ts)
        try:
            if not question:
                raise ValueError("ask a question after the mention, e.g. “A100够不够微调70B？” or “How many H100s to "
                                 "fine-tune Llama 3.1 70B?”")
            answer, _ = ctx.answer(question, session_id, None, surface="slack", trusted_id=True)
            for blocks in split_messages(answer_blocks(answer)):
                client.chat_postMessage(channel=channel, thread_ts=thread_ts, blocks=blocks, text=fallback_text(answer))
        except Exception as e:  # the thread hears about it; the log has the details, never the secrets
            known = isinstance(e, ValueError)
            if not known:
                log.exception("slack answer failed")
            text = f"⚠️ {e}" if known else "⚠️ Sorry, that failed on my side (details are in the server log). Try again?"
            _try(client.chat_postMessage, channel=channel, thread_ts=thread_ts, text=text)
        finally:
            if slow and react_ts:
                _try(client.reactions_remove, channel=channel, name=THINKING, timestamp=react_ts)

    def ack_now(ack):
        ack()

    def on_mention(body, event, client):
        if not seen.first_time(body.get("event_id")):
            return
        thread = event.get("thread_ts") or event["ts"]
        session = f"slack:{body.get('team_id', 'T')}:{event['channel']}:{thread}"
        reply(client, event["channel"], thread, session, question_of(event.get("text", "")), event["ts"])

    def on_message(body, event, client):
        if event.get("channel_type") != "im" or event.get("bot_id") or event.get("subtype"):
            return
        if not seen.first_time(body.get("event_id")):
            return
        thread = event.get("thread_ts")
        session = f"slack:{body.get('team_id', 'T')}:{event['channel']}:{thread or 'dm'}"
        reply(client, event["channel"], thread, session, question_of(event.get("text", "")), event["ts"])

    def ack_command(ack, command):
        ack(text=f"🧮 {command.get('text') or ''}".strip())

    def on_command(command, client):
        channel = command["channel_id"]
        session = f"slack:{command.get('team_id', 'T')}:{channel}:cmd-{command.get('user_id', 'U')}"
        reply(client, channel, None, session, question_of(command.get("text", "")), None)

    app.event("app_mention")(ack=ack_now, lazy=[on_mention])
    app.event("message")(ack=ack_now, lazy=[on_message])
    app.command("/gpu")(ack=ack_command, lazy=[on_command])
    return app


def _try(call, **kw):
    try:
        call(**kw)
    except Exception as e:  # a missing scope for reactions must not stop the answer
        log.warning("Slack call %s failed: %s", getattr(call, "__name__", "?"), e.__class__.__name__)


def http_asgi(app):
    """The Bolt app as a FastAPI app with Slack's events at /slack/events (and /slack/commands)."""
    from fastapi import FastAPI
    from slack_bolt.adapter.fastapi import SlackRequestHandler

    handler = SlackRequestHandler(app)
    api = FastAPI(title="gpu-advisor Slack adapter", docs_url=None, redoc_url=None, openapi_url=None)

    async def checked(req: Request):
        """Slack's request, refused plainly (no traceback in the log) when its headers or body are malformed."""
        from fastapi.responses import JSONResponse

        ts = req.headers.get("x-slack-request-timestamp", "")
        if not ts.isdigit() or not req.headers.get("x-slack-signature"):
            return JSONResponse(status_code=401, content={
                "error": "not a Slack request: X-Slack-Request-Timestamp (whole seconds) and X-Slack-Signature required"})
        try:
            return await handler.handle(req)
        except Exception as e:  # a body Bolt cannot parse: the sender is not Slack, or it was cut
            log.warning("refused a malformed Slack request: %s", e.__class__.__name__)
            return JSONResponse(status_code=400, content={"error": "malformed Slack request body"})

    @api.post("/slack/events")
    async def events(req: Request):
        return await checked(req)

    @api.post("/slack/commands")
    async def commands(req: Request):
        return await checked(req)

    @api.get("/healthz")
    def healthz():
        return {"status": "ok"}

    return api
