"""Failed sign-ins are throttled per (username, address) and per address.

Nobody elsewhere can lock an account's owner out; a broken counter store (Redis down) lets
sign-ins through with a log line instead of failing them.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.shared.errors import ServiceError
from app.web.throttle import Limit, LoginThrottle, make_storage
from tests.ops.private_services import private_redis

PASSWORD = "sea dragons!"


def _throttle(url: str | None, pair: str, address: str, ns: str | None = None) -> LoginThrottle:
    store = make_storage(url)
    ns = ns or "t" + secrets.token_hex(6)  # a Redis shared with other runs: keys of our own
    return LoginThrottle(Limit(store, "pair", pair, ns), Limit(store, "addr", address, ns))


@pytest.fixture
def app(sqlite_url: str, make_settings: Callable[..., Settings]) -> FastAPI:
    """One database is enough: the throttle does not touch it."""
    application = create_app(make_settings(sqlite_url))
    application.state.login_throttle = _throttle(None, "3/minute", "5/minute")
    return application


def _register(app: FastAPI, username: str) -> None:
    with TestClient(app) as c:
        r = c.post("/api/users", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text


def _login(c: TestClient, username: str, password: str = PASSWORD) -> int:
    return c.post(
        "/api/session/login", json={"username": username, "password": password}
    ).status_code


def test_failures_lock_that_username_from_that_address(app: FastAPI) -> None:
    _register(app, "alice_1")
    with TestClient(app, client=("198.51.100.7", 4000)) as c:
        for _ in range(3):
            assert _login(c, "alice_1", "nope nope") == 401
        r = c.post("/api/session/login", json={"username": "Alice_1", "password": PASSWORD})
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "too_many_attempts"
        assert "try again in" in r.json()["error"]["message"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert c.get("/api/me").status_code == 401  # refused: no session was opened


def test_the_owner_elsewhere_is_not_locked_out(app: FastAPI) -> None:
    """An attacker's failures from one address do not stop the right password from another."""
    _register(app, "owner_1")
    with TestClient(app, client=("203.0.113.66", 4000)) as attacker:
        for _ in range(5):
            assert _login(attacker, "owner_1", "guess guess") in (401, 429)
        assert _login(attacker, "owner_1") == 429
    with TestClient(app, client=("192.0.2.10", 4000)) as owner:
        assert _login(owner, "owner_1") == 200
        assert owner.get("/api/me").json()["username"] == "owner_1"


def test_successes_are_not_counted(app: FastAPI) -> None:
    _register(app, "bob_1")
    with TestClient(app) as c:
        for _ in range(6):
            assert _login(c, "bob_1") == 200


def test_one_address_guessing_many_usernames_is_stopped(app: FastAPI) -> None:
    _register(app, "carol_1")
    with TestClient(app, client=("198.51.100.9", 4000)) as c:
        for i in range(5):
            assert _login(c, f"x_{i}", "whatever1") == 401
        assert _login(c, "carol_1") == 429  # the address as a whole is over its limit
    with TestClient(app, client=("198.51.100.10", 4000)) as other:
        assert _login(other, "carol_1") == 200


def test_instances_sharing_redis_count_together(redis_url: str) -> None:
    ns = "t" + secrets.token_hex(6)
    a = _throttle(redis_url, "2/minute", "10/minute", ns)
    b = _throttle(redis_url, "2/minute", "10/minute", ns)  # another instance, same deployment
    user, addr = f"u{secrets.token_hex(6)}", "203.0.113.9"
    a.failed(user, addr)
    b.failed(user, addr)
    with pytest.raises(ServiceError) as err:
        a.check(user, addr)
    assert err.value.code == "too_many_attempts" and err.value.retry_after
    a.check(user, "203.0.113.10")  # the same name from another address is fine


@pytest.mark.server
def test_redis_down_fails_open_with_a_log_line(
    sqlite_url: str, make_settings: Callable[..., Settings], caplog: pytest.LogCaptureFixture
) -> None:
    """Sign-in with the throttle's Redis stopped: 200 or 401 as usual, never a 500."""
    with private_redis() as redis:
        app = create_app(make_settings(sqlite_url))
        app.state.login_throttle = _throttle(redis.url, "3/minute", "5/minute")
        _register(app, "dana_1")
        with TestClient(app, raise_server_exceptions=False) as c:
            assert _login(c, "dana_1", "wrong pass") == 401  # counted in the private Redis
            redis.stop()
            with caplog.at_level(logging.WARNING, logger="app.web.throttle"):
                assert _login(c, "dana_1", "wrong pass") == 401
                assert _login(c, "dana_1") == 200
            assert any("letting it through" in r.getMessage() for r in caplog.records)
        app.state.engine.dispose()
