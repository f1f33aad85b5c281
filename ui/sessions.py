"""Conversation state for follow-ups, shared by the web chat, the HTTP API and the Slack adapter.

A session is a list of turns ({"question", "slots", "intent", "at"}); a follow-up inherits the last
turn's slots. Two stores with one interface:

- SQLite in the data directory (default): one file, survives restarts, safe across threads;
- Redis when REDIS_URL is set: several replicas behind a load balancer share the sessions.

Sessions idle for longer than the TTL (GPU_ADVISOR_SESSION_TTL seconds, default 7 days) expire.
"""
from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

DEFAULT_TTL_S = 7 * 24 * 3600
MAX_TURNS = 50
SESSION_ID = re.compile(r"[A-Za-z0-9_\-][A-Za-z0-9_.:\-]{0,127}")

log = logging.getLogger(__name__)


class SessionError(ValueError):
    """A session id or store that cannot be used, said plainly."""


def new_session_id() -> str:
    return secrets.token_urlsafe(18)


SURFACES = ("api", "web", "slack", "cli")


_SECRET_LOCK = threading.Lock()
_SECRETS: dict[str, bytes] = {}


def _secret() -> bytes:
    """The key that signs session ids: GPU_ADVISOR_SESSION_SECRET, else a random key kept in the data directory
    (created once, atomically, mode 0600; replicas sharing sessions in Redis must share the variable)."""
    env = os.environ.get("GPU_ADVISOR_SESSION_SECRET")
    if env:
        return env.encode()
    from knowledge.index import default_data_dir

    path = default_data_dir() / "session.key"
    with _SECRET_LOCK:
        if str(path) in _SECRETS:
            return _SECRETS[str(path)]
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".session.key.{os.getpid()}.{threading.get_ident()}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(secrets.token_bytes(32))
            try:
                os.link(tmp, path)  # atomic: the first process to get here wins, the others read its key
            except FileExistsError:
                pass
            finally:
                tmp.unlink(missing_ok=True)
        _SECRETS[str(path)] = path.read_bytes()
        return _SECRETS[str(path)]


def _sign(surface: str, rand: str, caller: str) -> str:
    import base64
    import hashlib
    import hmac

    mac = hmac.new(_secret(), f"{surface}|{rand}|{caller}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:12]).decode().rstrip("=")


def issue_session_id(surface: str, caller: str = "") -> str:
    """A new session id for `surface`, signed for `caller` (e.g. a hash of the API token): 'api-RANDOM.SIG'."""
    rand = secrets.token_urlsafe(18)
    return f"{surface}-{rand}.{_sign(surface, rand, caller)}"


def verify_session_id(session_id: str, surface: str, caller: str = "") -> str:
    """session_id if this server issued it on `surface` to `caller`; SessionError otherwise. A Slack thread's id, or
    another client's, cannot be continued through the API."""
    import hmac

    check_session_id(session_id)
    head, _, sig = session_id.partition(".")
    prefix, _, rand = head.partition("-")
    if prefix != surface or not rand or not sig or not hmac.compare_digest(sig, _sign(surface, rand, caller)):
        raise SessionError("session_id was not issued to you by this server for this surface: continue with the "
                           "session_id a reply gave you, or send null to start a new conversation")
    return session_id


def check_session_id(session_id: str) -> str:
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise SessionError("session_id must be 1-128 characters of letters, digits, '_', '-', '.', ':' (not starting with '.' or ':') "
                           "(or null to start a new conversation)")
    return session_id


class SessionStore(Protocol):
    def history(self, session_id: str) -> list[dict]: ...

    def append(self, session_id: str, turn: dict) -> None: ...

    def describe(self) -> str: ...

    def ping(self) -> bool: ...


def ttl_from_env() -> int:
    raw = os.environ.get("GPU_ADVISOR_SESSION_TTL")
    if not raw:
        return DEFAULT_TTL_S
    try:
        ttl = int(raw)
    except ValueError:
        raise SessionError(f"GPU_ADVISOR_SESSION_TTL={raw!r} is not a whole number of seconds") from None
    if ttl < 1:
        raise SessionError(f"GPU_ADVISOR_SESSION_TTL={raw!r} must be at least 1 second")
    return ttl


class SQLiteSessionStore:
    """Sessions in one SQLite file; each call opens its own connection, writes are serialized."""

    def __init__(self, path: Path, ttl_s: int = DEFAULT_TTL_S, clock=time.time):
        self.path = Path(path)
        self.ttl_s = ttl_s
        self.clock = clock
        self._lock = threading.Lock()
        self._writes = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, turns TEXT NOT NULL, updated REAL NOT NULL)")
            db.execute("CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10, isolation_level=None)

    def history(self, session_id: str) -> list[dict]:
        with self._connect() as db:
            row = db.execute("SELECT turns, updated FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None or row[1] < self.clock() - self.ttl_s:
            return []
        return json.loads(row[0])

    def append(self, session_id: str, turn: dict) -> None:
        now = self.clock()
        with self._lock:
            db = self._connect()
            try:
                db.execute("BEGIN IMMEDIATE")
                row = db.execute("SELECT turns, updated FROM sessions WHERE id = ?", (session_id,)).fetchone()
                turns = json.loads(row[0]) if row and row[1] >= now - self.ttl_s else []
                turns = (turns + [turn])[-MAX_TURNS:]
                db.execute("INSERT INTO sessions (id, turns, updated) VALUES (?, ?, ?) "
                           "ON CONFLICT(id) DO UPDATE SET turns = excluded.turns, updated = excluded.updated",
                           (session_id, json.dumps(turns, ensure_ascii=False), now))
                self._writes += 1
                if self._writes % 100 == 1:  # expire old sessions now and then, not on every write
                    db.execute("DELETE FROM sessions WHERE updated < ?", (now - self.ttl_s,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            finally:
                db.close()

    def count(self) -> int:
        with self._connect() as db:
            return db.execute("SELECT COUNT(*) FROM sessions WHERE updated >= ?", (self.clock() - self.ttl_s,)).fetchone()[0]

    def describe(self) -> str:
        return f"sqlite {self.path}"

    def ping(self) -> bool:
        try:
            with self._connect() as db:
                db.execute("SELECT 1").fetchone()
            return True
        except sqlite3.Error:
            return False


class RedisSessionStore:
    """Sessions as Redis lists (one key per session, expiring after the TTL of inactivity)."""

    PREFIX = "gpu-advisor:session:"

    def __init__(self, url: str, ttl_s: int = DEFAULT_TTL_S):
        import redis

        self.url = url
        self.ttl_s = ttl_s
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5, decode_responses=True)

    def history(self, session_id: str) -> list[dict]:
        return [json.loads(x) for x in self.client.lrange(self.PREFIX + session_id, 0, -1)]

    def append(self, session_id: str, turn: dict) -> None:
        key = self.PREFIX + session_id
        with self.client.pipeline(transaction=True) as pipe:
            pipe.rpush(key, json.dumps(turn, ensure_ascii=False))
            pipe.ltrim(key, -MAX_TURNS, -1)
            pipe.expire(key, self.ttl_s)
            pipe.execute()

    def describe(self) -> str:
        from urllib.parse import urlsplit

        u = urlsplit(self.url)  # never show a password
        return f"redis {u.scheme}://{u.hostname}:{u.port or 6379}{u.path}"

    def ping(self) -> bool:
        try:
            return bool(self.client.ping())
        except Exception:
            return False


def open_store(redis_url: str | None = None, directory: Path | None = None, ttl_s: int | None = None) -> SessionStore:
    """Redis when a URL is given (or REDIS_URL is set), else SQLite in the data directory."""
    ttl = ttl_s if ttl_s is not None else ttl_from_env()
    url = redis_url if redis_url is not None else os.environ.get("REDIS_URL")
    if url:
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise SessionError(f"REDIS_URL must start with redis://, rediss:// or unix:// (got {url.split(':')[0]}:...)")
        return RedisSessionStore(url, ttl)
    if directory is None:
        from knowledge.index import default_data_dir

        directory = default_data_dir()
    return SQLiteSessionStore(directory / "sessions.sqlite3", ttl)


def events_in_store(text: str, store: SessionStore, session_id: str | None, **kw):
    """ask_events() continuing the conversation kept under session_id: its events, the last one
    {"type": "answer", "answer", "session_id"}; the turn is stored once the answer is complete."""
    from assistant.service import ask_events, session_turn

    session_id = check_session_id(session_id) if session_id else new_session_id()
    trouble = None
    try:
        history = [t["slots"] for t in store.history(session_id)]
    except store_errors() as e:  # the store is down: answer anyway, without the earlier turns, and say so
        log.warning("session store unreachable (%s): answering without history", e.__class__.__name__)
        history, trouble = [], e.__class__.__name__
    for event in ask_events(text, history=history, **kw):
        if event["type"] == "answer":
            answer = event["answer"]
            if trouble is None:
                try:
                    store.append(session_id, session_turn(text, answer))
                except store_errors() as e:
                    trouble = e.__class__.__name__
            if trouble is not None:
                answer = answer.model_copy(update={"warnings": [
                    f"the conversation store ({store.describe().split(' ')[0]}) is unreachable ({trouble}): this "
                    "answer does not use earlier turns and this turn was not kept; it recovers by itself"]
                    + answer.warnings})
            event = event | {"answer": answer, "session_id": session_id}
        yield event


def store_errors() -> tuple[type[BaseException], ...]:
    """What a failing session store raises: SQLite and OS errors, and Redis's own when redis is installed."""
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, ConnectionError, TimeoutError)
    try:
        import redis

        errors += (redis.exceptions.RedisError,)
    except ImportError:
        pass
    return errors


def ask_in_store(text: str, store: SessionStore, session_id: str | None, **kw):
    """The same, without streaming: (answer, session_id)."""
    *_, last = events_in_store(text, store, session_id, **kw)
    return last["answer"], last["session_id"]
