"""Sessions: follow-ups continue a conversation; SQLite survives a restart; Redis shares them; old ones expire."""
from __future__ import annotations

import threading

import pytest

from ui.sessions import (MAX_TURNS, RedisSessionStore, SessionError, SQLiteSessionStore, ask_in_store, check_session_id,
                         new_session_id, open_store)


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


def turn(n: int) -> dict:
    return {"question": f"q{n}", "slots": {"n": n}, "intent": "explain", "at": n}


def test_sqlite_store_survives_a_restart(tmp_path):
    path = tmp_path / "s.sqlite3"
    SQLiteSessionStore(path).append("abc", turn(1))
    SQLiteSessionStore(path).append("abc", turn(2))
    assert [t["question"] for t in SQLiteSessionStore(path).history("abc")] == ["q1", "q2"]
    assert SQLiteSessionStore(path).history("other") == []


def test_sqlite_sessions_expire_after_the_ttl(tmp_path):
    clock = Clock()
    store = SQLiteSessionStore(tmp_path / "s.sqlite3", ttl_s=3600, clock=clock)
    store.append("old", turn(1))
    clock.now += 3599
    assert len(store.history("old")) == 1          # 1 s before expiry: still there
    clock.now += 2
    assert store.history("old") == []              # 1 s after: gone
    store.append("old", turn(2))                   # and a new turn starts afresh, not on top of the expired ones
    assert [t["question"] for t in store.history("old")] == ["q2"]


def test_sqlite_keeps_the_last_turns_only(tmp_path):
    store = SQLiteSessionStore(tmp_path / "s.sqlite3")
    for n in range(MAX_TURNS + 5):
        store.append("long", turn(n))
    h = store.history("long")
    assert len(h) == MAX_TURNS and h[0]["question"] == "q5" and h[-1]["question"] == f"q{MAX_TURNS + 4}"


def test_sqlite_concurrent_appends_lose_nothing(tmp_path):
    store = SQLiteSessionStore(tmp_path / "s.sqlite3")

    def worker(k):
        for n in range(10):
            store.append("shared", turn(k * 100 + n))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(store.history("shared")) == 40      # 4 threads x 10 turns, all kept (40 < MAX_TURNS)


def test_session_ids_are_checked():
    assert check_session_id(new_session_id())
    assert check_session_id("slack:T1:C2:1712345678.000100")
    for bad in ("", "has space", "x" * 129, "../etc/passwd", ":leading"):
        with pytest.raises(SessionError, match="session_id must be"):
            check_session_id(bad)


def test_generated_ids_always_pass_the_check():
    # token_urlsafe may start with '-' or '_': 500 draws cover that with near certainty (1 - (62/64)^500)
    for _ in range(500):
        check_session_id(new_session_id())


def test_a_follow_up_inherits_the_previous_turn(tmp_path):
    store = SQLiteSessionStore(tmp_path / "s.sqlite3")
    first, sid = ask_in_store("A100够不够微调70B？", store, None)
    follow, sid2 = ask_in_store("那H100呢？", store, sid)
    assert sid2 == sid
    assert first.verdict.gpu == "a100-80gb" and follow.verdict.gpu == "h100"
    assert follow.slots["model"] == "70b"          # the model came from the first turn
    alone, _ = ask_in_store("那H100呢？", store, None)
    assert alone.verdict is None                   # without the session there is nothing to follow up


def test_open_store_picks_sqlite_or_redis(tmp_path, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert open_store(directory=tmp_path).describe() == f"sqlite {tmp_path / 'sessions.sqlite3'}"
    monkeypatch.setenv("REDIS_URL", "redis://:secret@127.0.0.1:6390/2")
    store = open_store()
    assert isinstance(store, RedisSessionStore) and "secret" not in store.describe()
    with pytest.raises(SessionError, match="REDIS_URL must start with"):
        open_store(redis_url="http://127.0.0.1:6379")
    monkeypatch.setenv("GPU_ADVISOR_SESSION_TTL", "soon")
    with pytest.raises(SessionError, match="whole number of seconds"):
        open_store(directory=tmp_path)


def test_redis_store_shares_sessions_between_replicas(redis_url):
    a, b = RedisSessionStore(redis_url), RedisSessionStore(redis_url)   # two server processes, one Redis
    assert a.ping()
    first, sid = ask_in_store("A100够不够微调70B？", a, None)
    follow, _ = ask_in_store("那H100呢？", b, sid)                       # the follow-up lands on the other replica
    assert follow.verdict.gpu == "h100" and follow.slots["model"] == "70b"
    assert [t["question"] for t in a.history(sid)] == ["A100够不够微调70B？", "那H100呢？"]


def test_redis_sessions_expire(redis_url):
    import time

    store = RedisSessionStore(redis_url, ttl_s=1)
    store.append("brief", turn(1))
    assert len(store.history("brief")) == 1
    assert 0 < store.client.ttl(store.PREFIX + "brief") <= 1
    time.sleep(1.6)
    assert store.history("brief") == []


def test_redis_keeps_the_last_turns_only(redis_url):
    store = RedisSessionStore(redis_url)
    for n in range(MAX_TURNS + 3):
        store.append("long", turn(n))
    h = store.history("long")
    assert len(h) == MAX_TURNS and h[0]["question"] == "q3"
