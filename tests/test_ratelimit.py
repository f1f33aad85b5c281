"""Per-client token buckets: a burst, then the steady rate; clients do not share a bucket."""
from __future__ import annotations

import pytest

from ui.ratelimit import RateLimit, RateLimiter


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def test_parse_rate_limits():
    assert RateLimit.parse("60/min") == RateLimit(per_minute=60, burst=20)      # default burst: a third of a minute
    assert RateLimit.parse("5/s") == RateLimit(per_minute=300, burst=100)
    assert RateLimit.parse("120/min,burst=40") == RateLimit(per_minute=120, burst=40)
    assert RateLimit.parse("off").per_minute == 0
    with pytest.raises(ValueError, match="not a rate limit; use e.g. 60/min"):
        RateLimit.parse("lots")


def test_burst_then_steady_rate():
    clock = Clock()
    limiter = RateLimiter(RateLimit(per_minute=60, burst=3), clock=clock)   # 1 token per second, 3 at once
    assert [limiter.allow("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.allow("a") == pytest.approx(1.0)                        # empty: the next token is 1 s away
    clock.now += 0.5
    assert limiter.allow("a") == pytest.approx(0.5)                        # half refilled: 0.5 s to go
    clock.now += 0.5
    assert limiter.allow("a") == 0.0                                        # one token after 1 s
    assert limiter.allow("b") == 0.0                                        # another client has its own bucket


def test_off_never_limits():
    limiter = RateLimiter(RateLimit(per_minute=0))
    assert all(limiter.allow("a") == 0.0 for _ in range(10_000))


def test_memory_is_bounded():
    clock = Clock()
    limiter = RateLimiter(RateLimit(per_minute=60, burst=1), clock=clock)
    limiter.MAX_CLIENTS = 100
    for n in range(100):
        limiter.allow(f"c{n}")
    clock.now += 2                                                          # all buckets refilled
    limiter.allow("new")
    assert len(limiter._buckets) <= 2
