"""Fixtures for API tests: an app on a fresh database and a client per player."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

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


@pytest.fixture
def start_game(
    client_factory: Callable[..., TestClient],
) -> Callable[..., tuple[int, list[TestClient]]]:
    """Open, fill and start a table; returns (game id, clients) with clients[i] in seat i."""

    def start(players: int = 2, **options: Any) -> tuple[int, list[TestClient]]:
        host = client_factory("Player 1")
        r = host.post("/api/games", json={"players": players, **options})
        assert r.status_code == 201, r.text
        game = r.json()
        clients = [host]
        for i in range(1, players):
            client = client_factory(f"Player {i + 1}")
            body = {"invite_code": game["invite_code"]}
            assert client.post(f"/api/games/{game['id']}/join", json=body).status_code == 200
            clients.append(client)
        r = host.post(f"/api/games/{game['id']}/start")
        assert r.status_code == 200, r.text
        return game["id"], clients

    return start
