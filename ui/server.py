"""`gpu-advisor serve`: one FastAPI app with the HTTP API and the Gradio web chat mounted at /."""
from __future__ import annotations

import logging
import os
from importlib.metadata import PackageNotFoundError, version

from pydantic import BaseModel, Field

from assistant.readers.rules import MAX_QUESTION_CHARS, truncate_question
from ui.ratelimit import RateLimit, RateLimiter
from ui.sessions import SessionStore, events_in_store, open_store

log = logging.getLogger("gpu_advisor.server")


class ServeSettings(BaseModel):
    """Everything `serve` can be told; the defaults are what `make run` uses."""

    host: str = "127.0.0.1"
    port: int = Field(7860, ge=1, le=65535)
    backend: str = Field("auto", description="auto | rules | openai | ollama (or openai:MODEL, ollama:MODEL)")
    token: str | None = Field(default_factory=lambda: os.environ.get("GPU_ADVISOR_TOKEN") or None, repr=False)
    rate_limit: RateLimit = Field(default_factory=lambda: RateLimit.parse(os.environ.get("GPU_ADVISOR_RATE_LIMIT", "60/min,burst=20")))
    max_message_chars: int = Field(MAX_QUESTION_CHARS, ge=100, le=MAX_QUESTION_CHARS,
                                   description="longer messages are cut with a notice; the parser reads no more anyway")
    concurrency: int = Field(8, ge=1, le=256, description="Gradio queue: events processed at once")
    redis_url: str | None = Field(default_factory=lambda: os.environ.get("REDIS_URL") or None, repr=False)
    max_body_bytes: int = Field(default_factory=lambda: _max_body(), ge=1024, le=64 * 1024 * 1024,
                                description="larger request bodies are refused with 413 (GPU_ADVISOR_MAX_BODY_BYTES)")
    trusted_proxies: list[str] = Field(default_factory=lambda: _trusted(), description="peers whose X-Forwarded-For "
                                       "is believed (GPU_ADVISOR_TRUSTED_PROXIES); none by default")


def _max_body() -> int:
    from ui.limits import max_body_from_env
    return max_body_from_env()


def _trusted() -> list[str]:
    from ui.limits import trusted_from_env
    return trusted_from_env()


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

    def warm_up(self) -> None:
        """Load the retrieval index and the tokenizer before the first user waits for them."""
        self.deps.search("A100 80GB", k=1)

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

    def stream(self, message: str, session_id: str | None, lang: str | None, prices: dict[str, float] | None = None,
               *, surface: str = "web", caller: str = "", trusted_id: bool = False):
        """Events for one message, truncated, priced and continued from the session: token/reset events, then
        {"type": "answer", "answer", "session_id"}. Raises ValueError for a bad session id or price.
        Session ids are issued here, namespaced by surface and signed for the caller; a client's id is verified
        (trusted_id: an id the surface built itself, e.g. a Slack thread's)."""
        from knowledge.catalog import UnknownItem
        from ui.sessions import issue_session_id, verify_session_id

        if session_id is None:
            session_id = issue_session_id(surface, caller)
        elif not trusted_id:
            session_id = verify_session_id(session_id, surface, caller)
        text, notes = truncate_question(message, self.settings.max_message_chars)
        try:
            deps = self.deps_for(prices)
        except UnknownItem as e:
            raise ValueError(f"prices: {e}") from None
        for event in events_in_store(text, self.store, session_id, lang=lang, deps=deps, backend=self.backend):
            if event["type"] == "answer" and notes:
                event = event | {"answer": event["answer"].model_copy(update={"warnings": notes + event["answer"].warnings})}
            yield event

    def answer(self, message: str, session_id: str | None, lang: str | None, prices: dict[str, float] | None = None,
               **kw):
        """The same without streaming: (Answer, session_id)."""
        *_, last = self.stream(message, session_id, lang, prices, **kw)
        return last["answer"], last["session_id"]

    def index_summary(self) -> dict:
        index = self.deps.index(load=False)
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

    def llm_state(self) -> dict:
        """The LLM backend as configured here: its mode and whether its package is installed (no network call)."""
        import importlib.util

        from assistant.service import LLM_INSTALL_HINT, llm_mode

        provider = self.backend.partition(":")[0]
        if provider not in ("openai", "ollama"):
            return {"configured": False}
        module = {"openai": "langchain_openai", "ollama": "langchain_ollama"}[provider]
        importable = importlib.util.find_spec(module) is not None
        try:
            mode = llm_mode()
        except ValueError as e:
            mode = str(e)
        return {"configured": True, "backend": self.backend, "mode": mode, "importable": importable,
                "detail": "ready to call" if importable else f"{module} is not installed ({LLM_INSTALL_HINT}); "
                                                             "answers come from the rules backend"}

    def health(self) -> dict:
        from ui.api import Health

        sessions_ok = self.store.ping()
        llm = self.llm_state()
        ok = sessions_ok and (not llm["configured"] or llm["importable"])
        return Health(status="ok" if ok else "degraded", backend=self.backend, index=self.index_summary(),
                      sessions=self.store.describe().split(" ")[0] + ("" if sessions_ok else " (unreachable)"),
                      version=package_version(), llm=llm).model_dump()


def create_app(settings: ServeSettings | None = None, *, store: SessionStore | None = None, deps=None,
               with_ui: bool = True):
    """The ASGI app: API routes, then the Gradio UI at / (with_ui=False for API-only tests), behind the token guard."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    from fastapi import FastAPI

    from ui.access import TokenGuard
    from ui.api import add_routes

    settings = settings or ServeSettings()
    ctx = AppContext(settings, store, deps)
    app = FastAPI(title="gpu-advisor", version=package_version(), docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json")
    _offline_docs(app)
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
    from ui.limits import BodyLimit

    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    return app


def _offline_docs(app) -> None:
    """/api/docs with Swagger UI's assets served by this app (the files the package fastapi-offline ships): nothing
    from a CDN, so the page works offline and where CDNs are blocked."""
    from pathlib import Path

    import fastapi_offline
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.staticfiles import StaticFiles

    assets = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/api/docs-assets", StaticFiles(directory=str(assets)), name="docs-assets")

    @app.get("/api/docs", include_in_schema=False)
    async def docs():
        return get_swagger_ui_html(openapi_url="/api/openapi.json", title="gpu-advisor API",
                                   swagger_js_url="/api/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/api/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/api/docs-assets/favicon.png")


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
    # proxy_headers off: X-Forwarded-For is read by ui.limits.client_address, from trusted proxies only
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", access_log=False, proxy_headers=False)
    return 0
