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


def _shared(
    tmp_path_factory: pytest.TempPathFactory, name: str, bus: str | None
) -> Iterator[Server]:
    data = tmp_path_factory.mktemp(f"rt-{name}")
    srv = Server(data, f"sqlite:///{data / 'game.db'}", bus).start()
    yield srv
    srv.stop()


# Two session fixtures, not one parametrised: pytest keeps one instance of a parametrised
# session fixture at a time, and a worker of a parallel run alternates between the backends
# module by module, so it would stop one server and start the other at every module.
@pytest.fixture(scope="session")
def _memory_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _shared(tmp_path_factory, "memory", "memory://")


@pytest.fixture(scope="session")
def _redis_server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Server]:
    yield from _shared(tmp_path_factory, "redis", redis_url)


@pytest.fixture(params=["memory", "redis"])
def server(request: pytest.FixtureRequest) -> Server:
    """One server (SQLite file) per backend, shared by the tests of the session (per worker)."""
    return request.getfixturevalue(f"_{request.param}_server")


@pytest.fixture(params=["memory", "redis"])
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of its own on each backend, for tests that kill or restart it."""
    srv = Server(tmp_path, f"sqlite:///{tmp_path / 'game.db'}", bus_url(request)).start()
    yield srv
    srv.stop()
