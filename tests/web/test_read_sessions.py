"""A request's leftover transaction, which only read, ends with COMMIT (psycopg keeps the
connection's prepared statements then; a ROLLBACK drops them all); a request that failed is
rolled back, and a write nobody committed is never kept by a failure."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event, select

from app.db.models.accounts import User
from app.db.session import read_session

Factory = Callable[..., TestClient]


@pytest.fixture
def endings(app: FastAPI) -> Iterator[list[str]]:
    """How each of the app's connections' transactions ended, in order."""
    seen: list[str] = []
    engine = app.state.engine

    def committed(_conn: Any) -> None:
        seen.append("commit")

    def rolled_back(_conn: Any) -> None:
        seen.append("rollback")

    event.listen(engine, "commit", committed)
    event.listen(engine, "rollback", rolled_back)
    yield seen
    event.remove(engine, "commit", committed)
    event.remove(engine, "rollback", rolled_back)


def test_read_requests_end_their_transactions_with_commit(
    client_factory: Factory, endings: list[str]
) -> None:
    host = client_factory("Host")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    endings.clear()
    for _ in range(8):
        assert host.get(f"/api/games/{gid}").status_code == 200
        assert host.get("/api/me/games").status_code == 200
    assert endings and set(endings) == {"commit"}, endings
    endings.clear()
    assert host.get("/api/games/999999").status_code == 404  # refused: rolled back
    assert endings == ["rollback"]


def test_a_failure_inside_a_read_session_rolls_back(app: FastAPI) -> None:
    sessions = app.state.sessionmaker
    with pytest.raises(RuntimeError), read_session(sessions) as db:
        db.add(User(display_name="never-kept"))
        db.flush()
        raise RuntimeError("a bug after a write nobody committed")
    with sessions() as db:
        assert db.scalar(select(User).where(User.display_name == "never-kept")) is None
