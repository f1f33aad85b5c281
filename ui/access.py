"""Optional access token (GPU_ADVISOR_TOKEN) for the API and the web UI, as plain ASGI middleware.

A client proves it knows the token with `Authorization: Bearer TOKEN`, an `X-GPU-Advisor-Token` header,
or, in a browser, by opening `/?token=TOKEN` once: the token goes into an HttpOnly cookie and the URL
is cleaned. /healthz stays open so load balancers can probe it.
"""
from __future__ import annotations

import hmac
from urllib.parse import urlencode

from starlette.requests import HTTPConnection
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse

COOKIE = "gpu_advisor_token"
OPEN_PATHS = ("/healthz",)

_LOCKED_PAGE = """<!doctype html><meta charset="utf-8"><title>gpu-advisor: access token needed</title>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>Access token needed / 需要访问令牌</h1>
<p>This gpu-advisor server was started with <code>GPU_ADVISOR_TOKEN</code>. Open
<code>/?token=YOUR_TOKEN</code> once in this browser, or send <code>Authorization: Bearer YOUR_TOKEN</code>.</p>
<p>此服务设置了 <code>GPU_ADVISOR_TOKEN</code>：请在浏览器中打开 <code>/?token=你的令牌</code> 一次，
或在请求头中带上 <code>Authorization: Bearer 你的令牌</code>。</p></body>"""


def presented_token(headers) -> str | None:
    """The token a request presents: `Authorization: Bearer TOKEN` or the `X-GPU-Advisor-Token` header."""
    auth = headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else headers.get("x-gpu-advisor-token")


class TokenGuard:
    def __init__(self, app, token: str | None):
        self.app = app
        self.token = token or None

    def _ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope, receive, send):
        if self.token is None or scope["type"] not in ("http", "websocket") or scope.get("path") in OPEN_PATHS:
            return await self.app(scope, receive, send)
        conn = HTTPConnection(scope)
        header = presented_token(conn.headers)
        if self._ok(header) or self._ok(conn.cookies.get(COOKIE)):
            return await self.app(scope, receive, send)
        query = conn.query_params.get("token")
        if scope["type"] == "http" and self._ok(query):
            rest = [(k, v) for k, v in conn.query_params.multi_items() if k != "token"]
            target = scope["path"] + ("?" + urlencode(rest) if rest else "")
            response = RedirectResponse(target, status_code=303)
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", path="/")
            return await response(scope, receive, send)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return None
        if scope["path"].startswith("/api/"):
            response = JSONResponse(status_code=401, content={
                "error": "access token required: send 'Authorization: Bearer TOKEN' (the server's GPU_ADVISOR_TOKEN)"})
        else:
            response = HTMLResponse(_LOCKED_PAGE, status_code=401)
        return await response(scope, receive, send)
