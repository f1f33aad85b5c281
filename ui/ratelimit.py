"""Per-client token buckets for the HTTP API: a burst, then a steady rate; bounded memory."""
from __future__ import annotations

import re
import threading
import time

from pydantic import BaseModel, Field


class RateLimit(BaseModel):
    """`per_minute` requests a minute per client after a burst of `burst`; per_minute 0 turns the limit off."""

    per_minute: float = Field(60, ge=0, le=1_000_000)
    burst: int = Field(20, ge=1, le=1_000_000)

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """'60/min', '120/min,burst=40', '5/s', 'off' or '0'."""
        t = text.strip().lower()
        if t in ("off", "0", "none"):
            return cls(per_minute=0)
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*/\s*(s|sec|second|m|min|minute|h|hour)(?:\s*,\s*burst\s*=\s*(\d+))?", t)
        if not m:
            raise ValueError(f"{text!r} is not a rate limit; use e.g. 60/min, 5/s, '120/min,burst=40' or off")
        per = {"s": 60, "sec": 60, "second": 60, "m": 1, "min": 1, "minute": 1, "h": 1 / 60, "hour": 1 / 60}[m.group(2)]
        rate = float(m.group(1)) * per
        return cls(per_minute=rate, burst=int(m.group(3)) if m.group(3) else max(1, min(int(rate // 3) or 1, 1000)))

    def describe(self) -> str:
        return "off" if self.per_minute == 0 else f"{self.per_minute:g}/min per client, burst {self.burst}"


class RateLimiter:
    """allow(key) -> seconds to wait (0.0 = go ahead). Thread-safe; forgets idle clients."""

    MAX_CLIENTS = 10_000

    def __init__(self, limit: RateLimit, clock=time.monotonic):
        self.limit = limit
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last refill time)
        self._lock = threading.Lock()

    def allow(self, key: str) -> float:
        if self.limit.per_minute == 0:
            return 0.0
        rate = self.limit.per_minute / 60.0
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.limit.burst), now))
            tokens = min(float(self.limit.burst), tokens + (now - last) * rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1.0 - tokens) / rate
            if len(self._buckets) > self.MAX_CLIENTS:
                self._forget_full(now, rate)
        return wait

    def _forget_full(self, now: float, rate: float) -> None:
        """Drop clients whose bucket has refilled: they are indistinguishable from new ones."""
        full = [k for k, (tok, last) in self._buckets.items() if tok + (now - last) * rate >= self.limit.burst]
        for k in full:
            del self._buckets[k]
