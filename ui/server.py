"""`gpu-advisor serve`: one FastAPI app with the HTTP API and the Gradio web chat mounted at /."""
from __future__ import annotations

import logging
import os
import threading
from importlib.metadata import PackageNotFoundError, version
from typing import Literal

from pydantic import BaseModel, Field

from ui.ratelimit import RateLimit, RateLimiter
from ui.sessions import SessionStore, ask_in_store, open_store

log = logging.getLogger("gpu_advisor.server")

Backend = Literal["auto", "rules", "openai", "ollama"]


class ServeSettings(BaseModel):
    """Everything `serve` can be told; the defaults are what `make run` uses."""

    host: str = "127.0.0.1"
    port: int = Field(7860, ge=1, le=65535)
    backend: str = Field("auto", description="auto | rules | openai | ollama (or openai:MODEL, ollama:MODEL)")
    token: str | None = Field(default_factory=lambda: os.environ.get("GPU_ADVISOR_TOKEN") or None, repr=False)
    rate_limit: RateLimit = Field(default_factory=lambda: RateLimit.parse(os.environ.get("GPU_ADVISOR_RATE_LIMIT", "60/min,burst=20")))
    max_message_chars: int = Field(4000, ge=100, le=100_000)
    concurrency: int = Field(8, ge=1, le=256, description="Gradio queue: events processed at once")
    redis_url: str | None = Field(default_factory=lambda: os.environ.get("REDIS_URL") or None, repr=False)
    share: bool = False  # never on by default


def package_version() -> str:
    try:
        return version("gpu-advisor")
    except PackageNotFoundError:
        return "dev"


class AppContext:
    """What every surface of one server shares: settings, the session store, the planner's Deps."""

    def __init__(self, settings: ServeSettings, store: SessionStore | None = None, deps=None):
        from assistant.service import default_deps, resolve_backend

        self.settings = settings
        self.store = store or open_store(settings.redis_url)
        self.deps = deps or default_deps()
        self.backend = resolve_backend(settings.backend)
        self.limiter = RateLimiter(settings.rate_limit)
        self._index_lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the retrieval index and the tokenizer before the first user waits for them."""
        with self._index_lock:
            self.deps.search("A100 80GB", k=1)

    def truncate(self, message: str) -> tuple[str, list[str]]:
        limit = self.settings.max_message_chars
        if len(message) <= limit:
            return message, []
        return message[:limit], [f"the message was {len(message):,} characters; only the first {limit:,} were read"]

    def deps_for(self, prices: dict[str, float] | None):
        """Deps with this request's rental prices (USD per GPU-hour) replacing the table's."""
        if not prices:
            return self.deps
        from knowledge.prices import session_rental_override

        overrides = []
        for gpu_name, usd in prices.items():
            gpu, _ = self.deps.catalog.gpu(gpu_name)
            overrides.append(session_rental_override(gpu.id, usd))
        return self.deps.with_prices(overrides)

    def answer(self, message: str, session_id: str | None, lang: str | None, prices: dict[str, float] | None = None):
        """(Answer, session_id) for one message: truncated, priced, continued from the session."""
        from knowledge.catalog import UnknownItem

        text, notes = self.truncate(message)
        try:
            deps = self.deps_for(prices)
        except UnknownItem as e:
            raise ValueError(f"prices: {e}") from None
        answer, sid = ask_in_store(text, self.store, session_id, lang=lang, deps=deps, backend=self.backend)
        if notes:
            answer = answer.model_copy(update={"warnings": notes + answer.warnings})
        return answer, sid

    def stream(self, message: str, session_id: str | None, lang: str | None, prices: dict[str, float] | None = None):
        """ask_events for the web chat, continuing the session: token/reset events, then
        {"type": "answer", "answer", "session_id"}; the turn is stored when the answer is complete."""
        from assistant.service import ask_events
        from ui.sessions import check_session_id, new_session_id, turn_of

        text, notes = self.truncate(message)
        session_id = check_session_id(session_id) if session_id else new_session_id()
        history = [t["slots"] for t in self.store.history(session_id)]
        deps = self.deps_for(prices)
        for event in ask_events(text, backend=self.backend, history=history, deps=deps, lang=lang):
            if event["type"] == "answer":
                answer = event["answer"]
                if notes:
                    answer = answer.model_copy(update={"warnings": notes + answer.warnings})
                self.store.append(session_id, turn_of(text, answer))
                yield {"type": "answer", "answer": answer, "session_id": session_id}
            else:
                yield event

    def index_summary(self) -> dict:
        index = getattr(self.deps, "_index", None)
        if index is None:
            return {"ready": False, "chunks": 0, "retrieval": "bm25 + named entities (not loaded yet)"}
        return {"ready": True, "chunks": len(index.chunks()), "retrieval": "bm25 + named entities",
                "dense_store": (f"chroma server {index.settings.chroma_host}:{index.settings.chroma_port}"
                                if index.settings.chroma_host else f"embedded chroma in {index.settings.data_dir / 'chroma'}")}

    def backend_health(self) -> dict:
        """Is the configured LLM endpoint answering? (rules: always). Never shows keys or credentials."""
        from urllib.parse import urlsplit

        provider, _, model = self.backend.partition(":")
        if provider not in ("openai", "ollama"):
            return {"backend": self.backend, "ok": True, "detail": "rule-based planner, in process, no network"}
        if provider == "openai":
            base = os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
            url = base.rstrip("/") + "/models"
        else:
            base = os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
            base = base if "://" in base else "http://" + base
            url = base.rstrip("/") + "/api/tags"
        parts = urlsplit(base)
        shown = f"{parts.scheme}://{parts.hostname}{':' + str(parts.port) if parts.port else ''}{parts.path}"
        try:
            import httpx

            headers = {"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}"} if provider == "openai" and \
                os.environ.get("OPENAI_API_KEY") else {}
            r = httpx.get(url, timeout=3.0, headers=headers)
            ok = r.status_code < 400
            detail = f"{shown}: HTTP {r.status_code}"
        except Exception as e:
            ok, detail = False, f"{shown}: unreachable ({e.__class__.__name__}); answers fall back to the rules backend"
        return {"backend": self.backend, "model": model, "ok": ok, "detail": detail}

    def health(self) -> dict:
        from ui.api import Health

        sessions_ok = self.store.ping()
        return Health(status="ok" if sessions_ok else "degraded", backend=self.backend, index=self.index_summary(),
                      sessions=self.store.describe() + ("" if sessions_ok else " (unreachable)"),
                      version=package_version()).model_dump()


def create_app(settings: ServeSettings | None = None, *, store: SessionStore | None = None, deps=None,
               with_ui: bool = True):
    """The ASGI app: API routes, then the Gradio UI at / (with_ui=False for API-only tests), behind the token guard."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    from fastapi import FastAPI

    from ui.access import TokenGuard
    from ui.api import add_routes

    settings = settings or ServeSettings()
    ctx = AppContext(settings, store, deps)
    app = FastAPI(title="gpu-advisor", version=package_version(), docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.ctx = ctx
    add_routes(app, ctx)
    if with_ui:
        import gradio as gr

        from ui.web.blocks import CSS, build_ui

        blocks = build_ui(ctx)
        blocks.queue(default_concurrency_limit=settings.concurrency, max_size=256)
        app = gr.mount_gradio_app(app, blocks, path="/", footer_links=["api"], ssr_mode=False, mcp_server=False,
                                  show_error=False, css=CSS, theme=gr.themes.Soft())
        app.state.ctx = ctx
    app.add_middleware(TokenGuard, token=settings.token)
    return app


def serve(settings: ServeSettings) -> int:
    """Run until interrupted; returns the exit status."""
    import uvicorn

    app = create_app(settings)
    app.state.ctx.warm_up()
    where = f"http://{settings.host}:{settings.port}/"
    print(f"gpu-advisor web chat on {where}  (API: POST {where}api/ask, health: {where}healthz; "
          f"backend {app.state.ctx.backend}; sessions {app.state.ctx.store.describe()}; "
          f"rate limit {settings.rate_limit.describe()}; access token {'required' if settings.token else 'off'})", flush=True)
    if settings.host not in ("127.0.0.1", "localhost", "::1") and not settings.token:
        print("warning: listening beyond loopback without GPU_ADVISOR_TOKEN: anyone who can reach this port can use it",
              flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", access_log=False)
    return 0
