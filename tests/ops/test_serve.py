"""A real `seadragons serve`: graceful SIGTERM, forwarded addresses, JSON logs."""

from __future__ import annotations

import json
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.ops.private_services import wait_until
from tests.ops.servers import serve, server_env


def _refuses_connections(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return False
    except OSError:
        return True


def _live_game(server: Any) -> tuple[int, httpx.Client, dict[str, Any]]:
    """A started 2-player game; returns (id, the client to act, its state)."""
    a, b = server.client(), server.client()
    a.post("/api/session/guest", json={"name": "Ann"})
    b.post("/api/session/guest", json={"name": "Bob"})
    gid = a.post("/api/games", json={"players": 2}).json()["id"]
    assert b.post(f"/api/games/{gid}/join").status_code == 200
    assert a.post(f"/api/games/{gid}/start").status_code == 200
    to_act = a.get(f"/api/games/{gid}/state").json()["to_act"]
    mover = [a, b][to_act]
    return gid, mover, mover.get(f"/api/games/{gid}/state").json()


@pytest.mark.server
def test_sigterm_lets_a_request_in_flight_commit(
    tmp_path: Path, make_postgres_db: Callable[[], str]
) -> None:
    """SIGTERM while a move waits on the database: the server stops accepting connections,
    the move still commits and is answered 200, then the process exits cleanly."""
    url = make_postgres_db()
    env = server_env(tmp_path, DATABASE_URL=url, SHUTDOWN_GRACE_SECONDS="30")
    with serve(env, tmp_path / "server.log") as server:
        gid, mover, state = _live_game(server)
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        answer: dict[str, Any] = {}
        with psycopg.connect(url) as blocker:
            # Hold the game's row lock, so the move's UPDATE waits inside the server.
            blocker.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (gid,))

            def move() -> None:
                try:
                    answer["response"] = mover.post(f"/api/games/{gid}/actions", json=body)
                except httpx.HTTPError as exc:
                    answer["error"] = exc

            thread = threading.Thread(target=move)
            thread.start()

            def waiting_on_lock() -> bool:
                with psycopg.connect(url, autocommit=True) as probe:
                    row = probe.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND query ILIKE '%%UPDATE games%%'"  # the move's UPDATE (in a WITH)
                    ).fetchone()
                return bool(row and row[0])

            wait_until(waiting_on_lock, 30, "the move to wait on the row lock")
            server.proc.send_signal(signal.SIGTERM)
            wait_until(lambda: _refuses_connections(server.port), 30, "the listener to close")
            blocker.rollback()  # release the lock: the move proceeds and commits
        thread.join(60)
        assert "error" not in answer, answer
        r = answer["response"]
        assert r.status_code == 200, r.text
        assert r.json()["version"] == state["version"] + 1
        # uvicorn exits by re-raising the SIGTERM it handled, after its graceful shutdown.
        assert server.proc.wait(30) in (0, -signal.SIGTERM)
        assert "Finished server process" in server.log_text()
    with psycopg.connect(url) as check:
        version = check.execute("SELECT version FROM games WHERE id = %s", (gid,)).fetchone()
        moves = check.execute("SELECT count(*) FROM moves WHERE game_id = %s", (gid,)).fetchone()
    assert version == (state["version"] + 1,) and moves == (1,)


def _failed_logins(server: Any, forwarded_for: list[str]) -> list[int]:
    statuses = []
    with server.client() as c:
        for i, address in enumerate(forwarded_for):
            r = c.post(
                "/api/session/login",
                json={"username": f"nobody_{i}", "password": "wrong password"},
                headers={"x-forwarded-for": address},
            )
            statuses.append(r.status_code)
    return statuses


@pytest.mark.server
@pytest.mark.parametrize("trusted", [False, True])
def test_forwarded_addresses_are_believed_only_from_configured_proxies(
    tmp_path: Path, trusted: bool
) -> None:
    """by default a client cannot escape the per-address throttle by rotating
    X-Forwarded-For; with the loopback proxy configured, the forwarded address counts."""
    settings = {"LOGIN_LIMITS_PER_ADDRESS": "3/minute"}
    if trusted:
        settings["FORWARDED_ALLOW_IPS"] = "127.0.0.1"
    env = server_env(tmp_path, **settings)
    with serve(env, tmp_path / "server.log") as server:
        rotating = [f"203.0.113.{i}" for i in range(1, 6)]
        statuses = _failed_logins(server, rotating)
        if trusted:
            assert statuses == [401] * 5  # five addresses, one failure each
            assert _failed_logins(server, ["198.51.100.1"] * 4)[-1] == 429
        else:
            assert statuses == [401, 401, 401, 429, 429]  # all counted against 127.0.0.1


@pytest.mark.server
def test_json_logs_carry_request_game_and_user_ids(tmp_path: Path) -> None:
    env = server_env(tmp_path, LOG_FORMAT="json")
    with serve(env, tmp_path / "server.log") as server:
        with server.client() as c:
            uid = c.post("/api/session/guest", json={"name": "Logged"}).json()["id"]
            gid = c.post("/api/games", json={"players": 2}).json()["id"]
            r = c.get(f"/api/games/{gid}", headers={"x-request-id": "probe-42"})
            assert r.headers["x-request-id"] == "probe-42"
            missing = c.get("/api/games/777777")
            assert len(missing.headers["x-request-id"]) == 32  # made up when none was sent

        def logged() -> list[dict[str, Any]]:
            lines = [ln for ln in server.log_text().splitlines() if ln.startswith("{")]
            return [json.loads(ln) for ln in lines]

        def has_probe() -> bool:
            return any(e.get("request_id") == "probe-42" for e in logged())

        wait_until(has_probe, 20, "the request's log line")
        entries = logged()
    probe = next(e for e in entries if e.get("request_id") == "probe-42")
    assert probe["game_id"] == gid and probe["user_id"] == uid
    assert probe["status"] == 200 and probe["method"] == "GET" and "timestamp" in probe
    assert all("level" in e and "event" in e for e in entries)  # uvicorn's lines too
