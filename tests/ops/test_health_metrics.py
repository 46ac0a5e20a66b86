"""`/healthz` (alive), `/readyz` (database, schema, Redis), `/metrics` (Prometheus)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.main import create_app
from app.settings import Settings
from tests.ops.private_services import free_port, private_redis, wait_until
from tests.ops.servers import serve, server_env

TOKEN = "metrics-test-token"
BEARER = {"authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def app(sqlite_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    application = create_app(make_settings(sqlite_url, bot_delay_seconds=0, metrics_token=TOKEN))
    yield application
    application.state.engine.dispose()


def _metric(client: TestClient, name: str, **labels: str) -> float:
    """One sample's value from /metrics (0 when absent)."""
    body = client.get("/metrics", headers=BEARER).text
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = re.escape(name) + (r"\{" + re.escape(want) + r"\}" if want else "") + r" (\S+)"
    found = re.search(r"^" + pattern + r"$", body, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_readyz_checks_the_schema_is_at_head(app: FastAPI) -> None:
    client = TestClient(app)
    assert client.get("/healthz").json() == {"ok": True}
    assert client.get("/readyz").json() == {"ok": True}
    with app.state.engine.begin() as conn:
        head = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    r = client.get("/readyz")
    assert r.status_code == 503 and "schema" in r.json()["error"]["message"]
    assert client.get("/healthz").status_code == 200
    with app.state.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :h"), {"h": head})
    assert client.get("/readyz").status_code == 200


@pytest.mark.server
def test_readyz_checks_redis(sqlite_url: str, make_settings: Callable[..., Settings]) -> None:
    with private_redis() as redis:
        app = create_app(make_settings(sqlite_url, redis_url=redis.url))
        client = TestClient(app)  # no lifespan: the realtime bus is not started
        assert client.get("/readyz").status_code == 200
        redis.stop()
        r = client.get("/readyz")
        assert r.status_code == 503 and "Redis" in r.json()["error"]["message"]
        app.state.engine.dispose()


def test_metrics_count_moves_errors_and_bot_decisions(app: FastAPI) -> None:
    with TestClient(app) as client:
        moves = _metric(client, "seadragons_moves_applied_total")
        latency = _metric(client, "seadragons_move_seconds_count")
        missing = _metric(client, "seadragons_errors_total", code="not_found", transport="http")
        bots = _metric(client, "seadragons_bot_decision_seconds_count", level="random")
        assert client.get("/api/games/424242").status_code == 404
        assert (
            _metric(client, "seadragons_errors_total", code="not_found", transport="http")
            == missing + 1
        )
        client.post("/api/session/guest", json={"name": "Counter"})
        gid = client.post("/api/games", json={"players": 2}).json()["id"]
        client.post(f"/api/games/{gid}/bots", json={"level": "random"})
        client.post(f"/api/games/{gid}/start")

        def bot_decided() -> bool:
            # Play our own decisions (the first legal one) until the bot has had a turn.
            state = client.get(f"/api/games/{gid}/state").json()
            if state["legal_actions"]:
                body = {"version": state["version"], "action": state["legal_actions"][0]}
                assert client.post(f"/api/games/{gid}/actions", json=body).status_code in (
                    200,
                    409,
                )
            level = "random"
            return _metric(client, "seadragons_bot_decision_seconds_count", level=level) > bots

        wait_until(bot_decided, 60, "a bot decision")
        wait_until(lambda: _metric(client, "seadragons_moves_applied_total") > moves, 30, "moves")
        assert _metric(client, "seadragons_move_seconds_count") > latency
        body = client.get("/metrics", headers=BEARER).text
        for gauge in ("seadragons_open_sockets", "seadragons_live_rooms"):
            assert f"# TYPE {gauge} gauge" in body


def test_metrics_token(sqlite_url: str, make_settings: Callable[..., Settings]) -> None:
    app = create_app(make_settings(sqlite_url, metrics_token="s3cret"))
    client = TestClient(app)
    r = client.get("/metrics")
    assert r.status_code == 401 and r.json()["error"]["code"] == "metrics_token_required"
    assert client.get("/metrics", headers={"authorization": "Bearer nope"}).status_code == 401
    ok = client.get("/metrics", headers={"authorization": "Bearer s3cret"})
    assert ok.status_code == 200 and "seadragons_moves_applied_total" in ok.text
    app.state.engine.dispose()


def test_metrics_are_not_on_the_public_port_by_default(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    """No token: /metrics answers as an unknown path does, whatever the caller sends."""
    app = create_app(make_settings(sqlite_url))
    client = TestClient(app)
    for headers in ({}, {"authorization": "Bearer "}, {"authorization": "Bearer None"}):
        r = client.get("/metrics", headers=headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", headers
        assert "seadragons_" not in r.text
    app.state.engine.dispose()


@pytest.mark.server
def test_the_metrics_port_serves_them_beside_a_public_port_that_does_not(
    tmp_path: Path,
) -> None:
    """`seadragons serve` with SEADRAGONS_METRICS_PORT: a listener of its own (the compose
    stack's proxy routes only the app's port), while the public port answers 404."""
    port = free_port()
    env = server_env(
        tmp_path,
        DATABASE_URL=f"sqlite:///{tmp_path / 'm.db'}",
        METRICS_PORT=str(port),
        METRICS_HOST="127.0.0.1",
    )
    with serve(env, tmp_path / "server.log") as server:
        assert httpx.get(f"{server.url}/metrics").status_code == 404
        with server.client() as c:
            c.post("/api/session/guest", json={"name": "Counter"})
            assert c.get("/api/games/424242").status_code == 404
        private = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
        assert private.status_code == 200
        assert re.search(
            r'^seadragons_errors_total\{code="not_found",transport="http"\} [1-9]',
            private.text,
            re.MULTILINE,
        ), private.text[-2000:]


def test_multiprocess_mode_adds_up_every_process(tmp_path: Path) -> None:
    """With PROMETHEUS_MULTIPROC_DIR, values written by worker processes are summed."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    bump = "from app import metrics; metrics.MOVES_APPLIED.inc(2); metrics.OPEN_SOCKETS.inc()"
    for _ in range(2):  # two "workers"
        subprocess.run([sys.executable, "-c", bump], env=env, check=True)
    show = "from app import metrics; print(metrics.render()[0].decode())"
    out = subprocess.run(
        [sys.executable, "-c", show], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert re.search(r"^seadragons_moves_applied_total 4\.0$", out, re.MULTILINE), out
