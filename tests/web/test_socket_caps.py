"""Sockets are capped per user, and per address for signed-in users as for anonymous ones: many
guests from one address cannot open sockets without bound (each cap a setting)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings


@pytest.fixture
def app(sqlite_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    application = create_app(
        make_settings(
            sqlite_url,
            max_signed_in_sockets_per_address=3,
            max_sockets_per_address=2,
            max_sockets_per_user=5,
        )
    )
    yield application
    application.state.engine.dispose()


def _first(ws: object) -> dict:
    return ws.receive_json()  # type: ignore[attr-defined]


def test_signed_in_sockets_are_capped_per_address_too(app: FastAPI) -> None:
    with ExitStack() as stack:
        clients = [stack.enter_context(TestClient(app)) for _ in range(5)]
        for i, c in enumerate(clients):
            assert c.post("/api/session/guest", json={"name": f"G{i}"}).status_code == 200
        game = clients[0].post("/api/games", json={"players": 2}).json()
        path = f"/ws/games/{game['id']}"
        for c in clients[:3]:  # three guests, one address: up to the cap
            ws = stack.enter_context(c.websocket_connect(path))
            assert _first(ws)["type"] != "error"
        with clients[3].websocket_connect(path) as refused:
            frame = _first(refused)
            assert (frame["type"], frame["code"]) == ("error", "too_many_sockets")
        # Anonymous spectators from the same address have a cap of their own.
        anon = stack.enter_context(TestClient(app))
        for _ in range(2):
            ws = stack.enter_context(anon.websocket_connect(path))
            assert _first(ws)["type"] != "error"
        with anon.websocket_connect(path) as refused:
            assert _first(refused)["code"] == "too_many_sockets"


def test_the_live_core_owns_no_sql() -> None:
    """Storage is behind app.realtime.storage.LiveStore: no module of app/realtime imports the
    database layer (app.db.errors only tells "the database is away" from other failures)."""
    package = Path(__file__).resolve().parents[2] / "app" / "realtime"
    offenders = []
    for module in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{module.name}: {n}"
                for n in names
                if n.startswith(("sqlalchemy", "app.db")) and n != "app.db.errors"
            ]
    assert offenders == []
