"""Sessions cannot be forked or kept past an upgrade or a sign-in."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models.accounts import AuthSession, User
from app.services.accounts import users

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]
PASSWORD = "sea dragons!"


def _sessions_of(app: FastAPI, user_id: int) -> int:
    with app.state.sessionmaker() as db:
        return db.scalar(select(func.count()).where(AuthSession.user_id == user_id)) or 0


def _second_session(app: FastAPI, user_id: int) -> TestClient:
    """Another live session of `user_id`, as a fork from a race used to give (or a stolen one)."""
    with app.state.sessionmaker() as db:
        user = db.get(User, user_id)
        token = users._new_session(db, user, 1)
        db.commit()
    other = TestClient(app)
    other.cookies.set("sd_session", app.state.signer.sign(token).decode())
    assert other.get("/api/me").json()["id"] == user_id
    return other


def test_renaming_a_guest_keeps_one_session(app: FastAPI, client_factory: Factory) -> None:
    guest = client_factory("First")
    uid = guest.get("/api/me").json()["id"]
    for name in ("Second", "Third"):
        r = guest.post("/api/session/guest", json={"name": name})
        assert r.status_code == 200 and r.json()["id"] == uid
    assert _sessions_of(app, uid) == 1


def test_becoming_an_account_signs_out_every_other_session(
    app: FastAPI, client_factory: Factory
) -> None:
    guest = client_factory("Wanderer")
    uid = guest.get("/api/me").json()["id"]
    fork = _second_session(app, uid)
    revoked: list[tuple[int, frozenset[str]]] = []
    app.state.notifier.on_sessions_revoked.append(lambda u, h: revoked.append((u, h)))
    before = guest.cookies.get("sd_session")
    r = guest.post("/api/users", json={"username": "wanderer", "password": PASSWORD})
    assert r.status_code == 201 and r.json()["id"] == uid
    assert guest.cookies.get("sd_session") != before  # a fresh token for the caller
    assert guest.get("/api/me").json()["username"] == "wanderer"
    assert fork.get("/api/me").status_code == 401  # the other session is not the account's
    assert _sessions_of(app, uid) == 1
    # The socket layer hears which sessions went, to close their sockets.
    assert [u for u, _ in revoked] == [uid] and len(revoked[0][1]) == 2
    fork.close()


def test_signing_in_signs_out_the_accounts_other_sessions(
    app: FastAPI, client_factory: Factory
) -> None:
    first = client_factory()
    r = first.post("/api/users", json={"username": "mira", "password": PASSWORD})
    uid = r.json()["id"]
    second = client_factory()
    revoked: list[tuple[int, frozenset[str]]] = []
    app.state.notifier.on_sessions_revoked.append(lambda u, h: revoked.append((u, h)))
    login = {"username": "mira", "password": PASSWORD}
    assert second.post("/api/session/login", json=login).status_code == 200
    assert second.get("/api/me").json()["id"] == uid
    assert first.get("/api/me").status_code == 401
    assert _sessions_of(app, uid) == 1
    assert revoked and revoked[0][0] == uid
    # Signing in again from the same browser gives a fresh token, the old one dies.
    old = second.cookies.get("sd_session")
    assert second.post("/api/session/login", json=login).status_code == 200
    assert second.cookies.get("sd_session") != old
    stale = TestClient(app)
    stale.cookies.set("sd_session", old)
    assert stale.get("/api/me").status_code == 401
    stale.close()


def test_logout_tells_the_socket_layer(app: FastAPI, client_factory: Factory) -> None:
    guest = client_factory("Leaving")
    uid = guest.get("/api/me").json()["id"]
    revoked: list[tuple[int, frozenset[str]]] = []
    app.state.notifier.on_sessions_revoked.append(lambda u, h: revoked.append((u, h)))
    token = app.state.signer.unsign(guest.cookies.get("sd_session")).decode()
    assert guest.post("/api/session/logout").status_code == 200
    assert revoked == [(uid, frozenset({users.token_hash(token)}))]
