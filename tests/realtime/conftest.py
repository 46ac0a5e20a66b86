"""Fixtures: a real server per bus backend (memory://, redis://), shared by a module's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realtime.helpers import Server


@pytest.fixture
def anyio_backend() -> str:
    """Run async tests on asyncio (the server's loop too)."""
    return "asyncio"


def bus_url(request: pytest.FixtureRequest) -> str | None:
    """The broadcast URL of a backend name; Redis skips (or fails under CI) when absent."""
    if request.param == "memory":
        return "memory://"
    return request.getfixturevalue("redis_url")


@pytest.fixture(scope="session", params=["memory", "redis"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One server (SQLite file) per backend, shared by the tests of the session."""
    data = tmp_path_factory.mktemp(f"rt-{request.param}")
    srv = Server(data, f"sqlite:///{data / 'game.db'}", bus_url(request)).start()
    yield srv
    srv.stop()


@pytest.fixture(params=["memory", "redis"])
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of its own on each backend, for tests that kill or restart it."""
    srv = Server(tmp_path, f"sqlite:///{tmp_path / 'game.db'}", bus_url(request)).start()
    yield srv
    srv.stop()
