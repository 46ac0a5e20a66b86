"""The Origin check compares scheme, host and port, for requests and socket handshakes alike."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.shared.http import origin_allowed

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]
NONE: frozenset[str] = frozenset()


def test_another_scheme_on_the_same_host_and_port_is_another_origin(
    client_factory: Factory,
) -> None:
    """The report: `Origin: https://127.0.0.1:8301` against the http server was accepted."""
    client = client_factory("Victim")
    for origin in ("https://testserver", "https://testserver:80", "ws://testserver"):
        r = client.post("/api/games", json={"players": 2}, headers={"origin": origin})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin", origin
    r = client.post("/api/games", json={"players": 2}, headers={"referer": "https://testserver/"})
    assert r.status_code == 403
    assert client.get("/api/me/games").json()["games"] == []
    for origin in ("http://testserver", "http://testserver:80", "HTTP://TestServer"):
        r = client.post("/api/games", json={"players": 2}, headers={"origin": origin})
        assert r.status_code == 201, origin


@pytest.mark.parametrize(
    ("origin", "scheme", "host", "ok"),
    [
        ("https://127.0.0.1:8301", "http", "127.0.0.1:8301", False),
        ("http://127.0.0.1:8301", "http", "127.0.0.1:8301", True),
        ("https://dragons.example", "https", "dragons.example", True),
        ("https://dragons.example:443", "https", "dragons.example", True),
        ("https://dragons.example", "https", "dragons.example:443", True),
        ("http://dragons.example", "https", "dragons.example", False),
        ("https://dragons.example", "wss", "dragons.example", True),
        ("http://dragons.example", "wss", "dragons.example", False),
        ("http://dragons.example", "ws", "dragons.example", True),
        ("http://dragons.example:8080", "http", "dragons.example", False),
        ("http://dragons.example", "http", "", False),
        ("null", "http", "dragons.example", False),
    ],
)
def test_origin_rule(origin: str, scheme: str, host: str, ok: bool) -> None:
    assert origin_allowed(origin, scheme, host, NONE) is ok


def test_socket_handshakes_from_another_scheme_are_refused(client_factory: Factory) -> None:
    host = client_factory("Host")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    foreign = {"origin": "https://testserver"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        host.websocket_connect(f"/ws/games/{gid}", headers=foreign),
    ):
        pass
    assert refused.value.code == 1008
    with host.websocket_connect(f"/ws/games/{gid}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"]  # the first frame: the socket is open
