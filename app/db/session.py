"""Engine and session factory for SQLite (default) and Postgres (production)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from app.settings import normalize_database_url


def make_engine(url: str, **kwargs: Any) -> Engine:
    """Create an Engine for `url`; SQLite gets the pragmas that make it safe for a web server."""
    url = normalize_database_url(url)
    if url.startswith("sqlite"):
        # Requests run in a thread pool; SQLite's own locking serialises writers.
        kwargs.setdefault("connect_args", {"check_same_thread": False, "timeout": 30})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(url, **kwargs)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    # WAL lets readers run beside the single writer; synchronous=FULL makes every commit
    # durable before we acknowledge a move (survives SIGKILL and power loss).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """A session factory; objects stay usable after commit so services can return them."""
    return sessionmaker(bind=engine, expire_on_commit=False, autoflush=False)
