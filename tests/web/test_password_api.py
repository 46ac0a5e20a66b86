"""Changing a password: the current one checked, the new one's rules, other sessions signed out
(their sockets told), wrong guesses throttled with the sign-in's own counter."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models.accounts import User
from app.main import create_app
from app.services.accounts import users
from app.settings import Settings

OLD, NEW = "sea dragons!", "deeper waters 2"


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    application = create_app(make_settings(database_url, login_limits_per_user_address="3/minute"))
    yield application
    application.state.engine.dispose()


def _signed_in(app: FastAPI, username: str = "ann") -> TestClient:
    client = TestClient(app)
    r = client.post("/api/users", json={"username": username, "password": OLD})
    assert r.status_code == 201, r.text
    return client


def _another_session(app: FastAPI, client: TestClient) -> TestClient:
    """A second live session of the same account (another device)."""
    me = client.get("/api/me").json()["id"]
    with app.state.sessionmaker() as db:
        token = users._new_session(db, db.get(User, me), 30)
        db.commit()
    other = TestClient(app)
    other.cookies.set("sd_session", app.state.signer.sign(token).decode())
    assert other.get("/api/me").status_code == 200
    return other


def _change(client: TestClient, current: str, new: str) -> object:
    return client.post("/api/me/password", json={"current_password": current, "new_password": new})


def _hash(app: FastAPI, username: str) -> str:
    with app.state.sessionmaker() as db:
        return db.scalar(select(User.password_hash).where(User.username == username)) or ""


def test_a_password_change_checks_the_current_one_and_signs_out_the_others(
    app: FastAPI,
) -> None:
    ann = _signed_in(app)
    phone = _another_session(app, ann)
    told: list[tuple[int, frozenset[str]]] = []
    app.state.notifier.on_sessions_revoked.append(lambda uid, hashes: told.append((uid, hashes)))
    before = _hash(app, "ann")
    for current, new, status, code in [
        ("not it at all", NEW, 403, "wrong_password"),
        (OLD, "short", 422, "invalid_password"),
        (OLD, "x" * 129, 422, "invalid_password"),
        (OLD, "new\u0000password", 422, "invalid_password"),
        (OLD, OLD, 422, "invalid_password"),
    ]:
        r = _change(ann, current, new)
        assert r.status_code == status and r.json()["error"]["code"] == code, (new, r.text)
    assert _hash(app, "ann") == before and phone.get("/api/me").status_code == 200

    r = _change(ann, OLD, NEW)
    assert r.status_code == 200 and r.json() == {"ok": True, "signed_out": 1}, r.text
    assert ann.get("/api/me").status_code == 200, "the caller's own session stays"
    assert phone.get("/api/me").status_code == 401, "every other session is signed out"
    [(uid, hashes)] = told
    assert uid == ann.get("/api/me").json()["id"] and len(hashes) == 1
    fresh = TestClient(app)
    body = {"username": "ann", "password": OLD}
    assert fresh.post("/api/session/login", json=body).status_code == 401
    body["password"] = NEW
    assert fresh.post("/api/session/login", json=body).status_code == 200


def test_wrong_current_passwords_are_throttled_with_sign_ins(app: FastAPI) -> None:
    ann = _signed_in(app)
    for _ in range(3):
        assert _change(ann, "guess guess", NEW).status_code == 403
    r = _change(ann, OLD, NEW)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert "retry-after" in r.headers
    # The same counter as the sign-in form: guessing there is stopped too.
    r = TestClient(app).post("/api/session/login", json={"username": "ann", "password": OLD})
    assert r.status_code == 429
    assert _hash(app, "ann") and PasswordHasher().verify(_hash(app, "ann"), OLD)


def test_guests_and_strangers_have_no_password_to_change(app: FastAPI) -> None:
    guest = TestClient(app)
    guest.post("/api/session/guest", json={"name": "Gus"})
    r = _change(guest, OLD, NEW)
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
    r = _change(TestClient(app), OLD, NEW)
    assert r.status_code == 401
