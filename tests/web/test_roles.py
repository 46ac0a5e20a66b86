"""The roles' one list (app/roles.py): `serve` starts every background part by default and
none with SEADRAGONS_ROLE=web; a web-only app hints workers about commits that leave work."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.roles import PARTS, STARTS
from app.settings import Settings


@pytest.mark.parametrize(("role", "started"), [("all", PARTS), ("web", ())])
def test_serve_starts_the_background_parts_of_its_role(
    sqlite_url: str, make_settings: Callable[..., Settings], role: str, started: tuple[str, ...]
) -> None:
    app = create_app(make_settings(sqlite_url, role=role, review_concurrency=0))
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        assert app.state.background.started == started
        # The web role leaves bots to the workers: its runner never started listening.
        assert (app.state.bot_runner.loop is None) == (role == "web")
    assert app.state.background.started == ()


def test_the_worker_role_runs_what_serve_runs_by_default() -> None:
    assert STARTS["worker"] == STARTS["all"] == PARTS
    assert set(PARTS) == {
        "bot_runner",
        "deadlines",
        "mailer",
        "jobs",
        "push_relay",
        "analysis_jobs",
    }
    with pytest.raises(Exception, match="role"):
        Settings(role="worker")  # `serve` is all or web; a worker is its own command


def test_a_web_only_app_hints_the_workers_after_a_start(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(make_settings(sqlite_url, role="web", review_concurrency=0))
    with TestClient(app) as host:
        assert host.post("/api/session/guest", json={"name": "Ann"}).status_code == 200
        game = host.post("/api/games", json={"players": 2}).json()
        assert (
            host.post(f"/api/games/{game['id']}/bots", json={"level": "random"}).status_code == 200
        )
        hub = app.state.realtime
        seen: list[str] = []

        async def record(channel: str, message: object) -> bool:
            seen.append(channel)
            return True

        hub.publish = record  # type: ignore[method-assign]
        assert host.post(f"/api/games/{game['id']}/start").status_code == 200
        # The hint goes out from the loop, after the request's commit: wait for it.
        deadline = time.monotonic() + 5
        while f"{hub.prefix}work" not in seen:
            assert time.monotonic() < deadline, seen
            time.sleep(0.01)


@pytest.mark.server
@pytest.mark.parametrize("command", [["worker"], ["serve", "--port", "1"]])
def test_a_split_without_the_redis_bus_is_refused(tmp_path: Path, command: list[str]) -> None:
    """A worker, or a web-only server, without Redis would leave bot moves unheard or undone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
    env.update(SEADRAGONS_DATA_DIR=str(tmp_path), SEADRAGONS_ROLE="web")
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "SEADRAGONS_REDIS_URL" in done.stderr
