"""Engine and session factory for SQLite (default) and Postgres (production)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from app.settings import Settings, normalize_database_url
from app.shared.clock import SYSTEM_CLOCK, Clock
from app.shared.passwords import Passwords
from app.shared.state_cache import StateCache


def json_text(value: Any) -> str:
    """JSON columns' text (orjson: every move writes a whole game state)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str, **kwargs: Any) -> Engine:
    """Create an Engine for `url`; SQLite gets the pragmas that make it safe for a web server."""
    url = normalize_database_url(url)
    kwargs.setdefault("json_serializer", json_text)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if url.startswith("sqlite"):
        # Requests run in a thread pool; SQLite's own locking serialises writers.
        kwargs.setdefault("connect_args", {"check_same_thread": False, "timeout": 30})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    ping_idle_s = kwargs.pop("ping_idle_s", PING_IDLE_S)
    # The connection returned last is lent first: a quiet server keeps reusing a few warm
    # connections (their prepared statements, no idle ping) instead of cycling through them all.
    kwargs.setdefault("pool_use_lifo", True)
    engine = create_engine(url, **kwargs)
    _ping_when_idle(engine, ping_idle_s)
    return engine


def engine_for(settings: Settings) -> Engine:
    """The Engine a server process uses: its database URL and, for Postgres, its pool settings
    (`SEADRAGONS_DB_*`; SQLite keeps SQLAlchemy's own pool for its file or memory database)."""
    url = settings.resolved_database_url()
    if url.startswith("sqlite"):
        return make_engine(url)
    return make_engine(url, pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow)


# A pooled connection unused for longer than this is checked (SELECT 1) before it is handed out;
# a connection used just now is not: a ping costs a round trip on every request, and a busy
# server's connections are seldom idle. If the database restarted meanwhile, the first statement
# on a hot connection fails, the pool drops every connection it holds, and the caller answers
# 503 `unavailable` (clients retry); the next checkout connects afresh.
PING_IDLE_S = 5.0


def _ping_when_idle(engine: Engine, idle_s: float) -> None:
    """Pessimistic disconnect handling, only for connections that sat idle in the pool."""

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_conn: Any, record: Any) -> None:
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _lent(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get("returned_at")
        if returned is not None and time.monotonic() - returned < idle_s:
            return
        try:
            with dbapi_conn.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_conn.rollback()  # psycopg opened a transaction for the SELECT
        except Exception as exc:
            # The pool discards this connection and tries another (up to three times).
            raise DisconnectionError(f"a pooled connection is dead: {exc}") from exc


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    # WAL lets readers run beside the single writer; synchronous=FULL makes every commit
    # durable before we acknowledge a move (survives SIGKILL and power loss).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def make_sessionmaker(
    engine: Engine,
    *,
    clock: Clock = SYSTEM_CLOCK,
    state_cache_size: int = 256,
    replay_cache_size: int = 32,
    hint_cache_size: int = 256,
    passwords: Passwords | None = None,
) -> sessionmaker[Session]:
    """A session factory; objects stay usable after commit so services can return them. Every
    session it makes carries the app's clock (services read the time from it: app/shared/
    clock.py) and shares the factory's caches of what never changes once committed (app/
    shared/state_cache.py): one set per process and database."""
    info = {
        "clock": clock,
        "states": StateCache(state_cache_size),
        "replays": StateCache(replay_cache_size),
        "hints": StateCache(hint_cache_size),
        "passwords": passwords or Passwords(),
    }
    return sessionmaker(bind=engine, expire_on_commit=False, autoflush=False, info=info)


@contextmanager
def read_session(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A session whose transaction, if still open at the end of the block, is committed rather
    than rolled back (an exception still rolls it back).

    For work whose writes commit themselves (services own their transactions), what is left
    open at the end only read, and then COMMIT and ROLLBACK do the same; but psycopg forgets
    every prepared statement of the connection on ROLLBACK (and sends DEALLOCATE ALL), so
    pooled connections that always ended so would never reuse one: Postgres would plan every
    statement of every request again."""
    with sessions() as session:
        yield session
        if session.in_transaction():
            session.commit()
