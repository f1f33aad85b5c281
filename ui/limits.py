"""Operator safety for the HTTP server: a request-body limit and the client address behind trusted proxies.

- BodyLimit (ASGI middleware): a POST/PUT/PATCH body over `max_bytes` (GPU_ADVISOR_MAX_BODY_BYTES, default 64 kB)
  is refused with 413 and what is accepted, before any of it is kept: a Content-Length over the limit is refused
  at once; a streamed body is read up to the limit and then refused.
- client_address: the socket peer, unless the peer is a trusted proxy (GPU_ADVISOR_TRUSTED_PROXIES: IPs or CIDRs,
  comma-separated; none by default), in which case the right-most X-Forwarded-For address that is not itself a
  trusted proxy. A client cannot pick its own rate-limit bucket by sending the header.
"""
from __future__ import annotations

import ipaddress
import json
import os

DEFAULT_MAX_BODY_BYTES = 64 * 1024


def max_body_from_env() -> int:
    raw = os.environ.get("GPU_ADVISOR_MAX_BODY_BYTES")
    if not raw:
        return DEFAULT_MAX_BODY_BYTES
    try:
        v = int(raw)
    except ValueError:
        raise ValueError(f"GPU_ADVISOR_MAX_BODY_BYTES={raw!r} is not a whole number of bytes (e.g. 65536)") from None
    if not 1024 <= v <= 64 * 1024 * 1024:
        raise ValueError(f"GPU_ADVISOR_MAX_BODY_BYTES={v} must be between 1024 and 67108864")
    return v


def trusted_from_env() -> list[str]:
    raw = os.environ.get("GPU_ADVISOR_TRUSTED_PROXIES", "")
    nets = [x.strip() for x in raw.split(",") if x.strip()]
    for n in nets:
        try:
            ipaddress.ip_network(n, strict=False)
        except ValueError:
            raise ValueError(f"GPU_ADVISOR_TRUSTED_PROXIES: {n!r} is not an IP address or CIDR (e.g. 10.0.0.0/8)") from None
    return nets


def _in(addr: str, nets: list[str]) -> bool:
    try:
        ip = ipaddress.ip_address(addr.strip())
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(n, strict=False) for n in nets)


def client_address(peer: str | None, forwarded_for: str | None, trusted: list[str]) -> str:
    """The address a rate limit should count: the peer, or behind trusted proxies the first untrusted hop."""
    peer = peer or "unknown"
    if not trusted or not _in(peer, trusted) or not forwarded_for:
        return peer
    for hop in reversed([h.strip() for h in forwarded_for.split(",") if h.strip()]):
        if not _in(hop, trusted):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # a malformed hop: count the proxy, do not trust the header
    return peer


class BodyLimit:
    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, send) -> None:
        body = json.dumps({"error": f"request body over {self.max_bytes:,} bytes (GPU_ADVISOR_MAX_BODY_BYTES); a "
                                    "question is read up to 4,000 characters anyway: send a shorter message"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") not in ("POST", "PUT", "PATCH"):
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                if int(length) > self.max_bytes:
                    return await self._refuse(send)
            except ValueError:
                return await self._refuse(send)
        chunks, size, more = [], 0, True
        while more:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return None
            part = msg.get("body", b"")
            size += len(part)
            if size > self.max_bytes:
                return await self._refuse(send)
            chunks.append(part)
            more = msg.get("more_body", False)
        body, sent = b"".join(chunks), False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()
        return await self.app(scope, replay, send)
