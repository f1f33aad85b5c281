"""The HTTP API: POST /api/ask (the Answer object plus session_id) and GET /healthz."""
from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from typing import Literal

import anyio
from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from assistant.answer import Answer
from assistant.llm_limits import cancel_on
from ui.errors import validation_message

log = logging.getLogger("gpu_advisor.api")
DISCONNECT_POLL_S = 0.25  # how often a waiting /api/ask checks whether its client is still there

ACCEPTED = ('{"message": str (required), "session_id": str or null, "lang": "zh", "en" or null, '
            '"prices": {gpu_id: USD per GPU-hour} (optional)}')


class AskRequest(BaseModel):
    message: str = Field(description="the question, Chinese or English; longer than the limit is truncated with a notice")
    session_id: str | None = Field(None, description="from an earlier reply, to ask a follow-up; null starts a conversation")
    lang: Literal["zh", "en"] | None = Field(None, description="answer language; null = the question's")
    prices: dict[str, float] | None = Field(None, description="rental prices for this request, USD per GPU-hour by GPU id")


class AskResponse(Answer):
    session_id: str


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    backend: str
    index: dict
    sessions: str
    version: str
    llm: dict = Field(default_factory=dict, description="configured, mode, importable, detail (no network call)")


def add_routes(app: FastAPI, ctx) -> None:
    """Register the API on `app`; ctx is the server's AppContext (settings, store, deps, limiter)."""
    router = APIRouter()
    from ui.limits import client_address

    def _caller(request: Request) -> str:
        """Who a session id is bound to: the API token the request carries (hashed), else anonymous."""
        import hashlib

        from ui.access import presented_token

        token = presented_token(request.headers)
        return hashlib.sha256(token.encode()).hexdigest()[:16] if token else "anon"

    def _client_key(request: Request) -> str:
        return client_address(request.client.host if request.client else None,
                              request.headers.get("x-forwarded-for"), ctx.settings.trusted_proxies)

    @router.post("/api/ask", response_model=AskResponse)
    async def api_ask(body: AskRequest, request: Request):
        wait = ctx.limiter.allow(_client_key(request))
        if wait > 0:
            return JSONResponse(status_code=429, headers={"Retry-After": str(max(1, round(wait)))}, content={
                "error": f"rate limit: {ctx.limiter.limit.describe()}; retry in {wait:.1f} s"})
        gone = threading.Event()

        def work():
            with cancel_on(gone):
                return ctx.answer(body.message, body.session_id, body.lang, body.prices, surface="api",
                                  caller=_caller(request))

        # the answer is worked out on a thread (a slow LLM never blocks the event loop); when the client hangs up
        # first, its LLM work is told to stop, and the turn is still kept in the session (the rules answer)
        task = asyncio.ensure_future(anyio.to_thread.run_sync(work))
        while not task.done():
            await asyncio.wait({task}, timeout=DISCONNECT_POLL_S)
            if not task.done() and not gone.is_set() and await request.is_disconnected():
                log.info("client %s went away; stopping its LLM work", _client_key(request))
                gone.set()
        try:
            answer, session_id = task.result()
        except ValueError as e:  # a bad session id, an unknown GPU in prices, an unusable price
            return JSONResponse(status_code=422, content={"error": str(e), "accepted": ACCEPTED})
        return AskResponse(**answer.model_dump(), session_id=session_id)

    @router.get("/healthz", response_model=Health)
    async def healthz():  # on the event loop: answers even when every worker thread waits on a slow LLM
        return ctx.health()

    app.include_router(router)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError):
        return JSONResponse(status_code=422, content={
            "error": validation_message(exc.errors(), skip=("body",), empty="body"), "accepted": ACCEPTED})

    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        what = ("the body is not valid JSON text (UTF-8)" if exc.status_code == 400 else str(exc.detail))
        content = {"error": what} | ({"accepted": ACCEPTED} if request.url.path == "/api/ask" else {})
        return JSONResponse(status_code=422 if exc.status_code == 400 else exc.status_code, content=content,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception):
        ref = uuid.uuid4().hex[:12]
        log.exception("internal error %s on %s", ref, request.url.path)
        return JSONResponse(status_code=500, content={
            "error": f"internal error (reference {ref}); the details are in the server log, not in this reply"})
