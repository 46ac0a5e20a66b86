"""Failed sign-ins are throttled per username and per address (429 too_many_attempts)."""

from __future__ import annotations

import secrets
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.errors import ServiceError
from app.settings import Settings
from app.web.throttle import LoginThrottle


@pytest.fixture
def app(sqlite_url: str, make_settings: Callable[..., Settings]) -> FastAPI:
    """One database is enough: the throttle does not touch it."""
    application = create_app(make_settings(sqlite_url))
    application.state.login_throttle = LoginThrottle(limits="3/minute")
    return application


def _register(app: FastAPI, username: str) -> None:
    with TestClient(app) as c:
        r = c.post("/api/users", json={"username": username, "password": "sea dragons!"})
        assert r.status_code == 201, r.text


def test_failures_lock_the_username_even_for_the_right_password(app: FastAPI) -> None:
    _register(app, "alice_1")
    with TestClient(app) as c:
        for _ in range(3):
            r = c.post("/api/session/login", json={"username": "alice_1", "password": "nope nope"})
            assert r.status_code == 401, r.text
        r = c.post("/api/session/login", json={"username": "Alice_1", "password": "sea dragons!"})
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "too_many_attempts"
        assert "try again in" in r.json()["error"]["message"]
        assert c.get("/api/me").status_code == 401  # refused: no session was opened


def test_successes_are_not_counted(app: FastAPI) -> None:
    _register(app, "bob_1")
    with TestClient(app) as c:
        for _ in range(5):
            r = c.post("/api/session/login", json={"username": "bob_1", "password": "sea dragons!"})
            assert r.status_code == 200, r.text


def test_one_address_guessing_many_usernames_is_stopped(app: FastAPI) -> None:
    _register(app, "carol_1")
    with TestClient(app) as c:
        for name in ("x_1", "x_2", "x_3"):
            r = c.post("/api/session/login", json={"username": name, "password": "whatever1"})
            assert r.status_code == 401
        r = c.post("/api/session/login", json={"username": "carol_1", "password": "sea dragons!"})
        assert r.status_code == 429


def test_instances_sharing_redis_count_together(redis_url: str) -> None:
    a = LoginThrottle(redis_url, limits="2/minute")
    b = LoginThrottle(redis_url, limits="2/minute")
    user, addr = (
        f"u{secrets.token_hex(6)}",
        f"203.0.113.{secrets.randbelow(250)}-{secrets.token_hex(4)}",
    )
    a.failed(user, addr)
    b.failed(user, addr)
    with pytest.raises(ServiceError) as err:
        a.check(user, None)
    assert err.value.code == "too_many_attempts" and "seconds" in err.value.message
    b.check(f"other{secrets.token_hex(4)}", None)  # another name from no known address is fine
