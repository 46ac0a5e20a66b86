"""Fixtures for API tests: an app on a fresh database and a client per player."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    """The app on an empty database (SQLite and Postgres, via the parametrised database_url)."""
    application = create_app(make_settings(database_url))
    yield application
    application.state.engine.dispose()


@pytest.fixture
def client_factory(app: FastAPI) -> Iterator[Callable[..., TestClient]]:
    """Make clients with their own cookie jars (one per player); optionally signed in as guests."""
    clients: list[TestClient] = []

    def make(name: str | None = None) -> TestClient:
        client = TestClient(app)
        clients.append(client)
        if name is not None:
            r = client.post("/api/session/guest", json={"name": name})
            assert r.status_code == 200, r.text
        return client

    yield make
    for client in clients:
        client.close()
