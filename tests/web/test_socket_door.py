"""A game socket's upgrade at the app's door (app.realtime.endpoint.SocketDoor): the same checks
as the HTTP stack's (control characters, Origin), the reader's language, and nothing of that
stack kept in memory for the socket's life."""

from __future__ import annotations

import gc
import inspect
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]


@pytest.mark.parametrize("query", ["invite_code=a%00b", "x%07=1"])
def test_a_control_character_in_the_query_refuses_the_handshake(
    client_factory: Factory, query: str
) -> None:
    host = client_factory("Host")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        host.websocket_connect(f"/ws/games/{gid}?{query}"),
    ):
        pass
    assert refused.value.code == 1008


def test_a_sockets_frames_are_in_the_readers_language(client_factory: Factory) -> None:
    reader = client_factory("Lectora")
    spanish = {"accept-language": "es"}
    with reader.websocket_connect("/ws/games/987654", headers=spanish) as ws:
        frame = ws.receive_json()
    assert frame["code"] == "not_found" and frame["message"] == "no hay ninguna partida 987654"
    with reader.websocket_connect("/ws/games/987654") as ws:
        assert ws.receive_json()["message"] == "there is no game 987654"


def _suspended() -> list[Any]:
    gc.collect()
    return [o for o in gc.get_objects() if inspect.iscoroutine(o) and o.cr_frame is not None]


def test_an_open_socket_holds_no_frame_of_the_http_stack(client_factory: Factory) -> None:
    host = client_factory("Host")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    # Coroutines other tests of this process left suspended are not this socket's.
    before = {id(obj) for obj in _suspended()}
    with host.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":  # answered from the message loop
            pass
        suspended = {obj.cr_code.co_qualname for obj in _suspended() if id(obj) not in before}
    assert "_serve" in suspended  # the socket's message loop is waiting for a frame
    stack = {"Starlette.__call__", "ServerErrorMiddleware.__call__", "LanguageMiddleware.__call__"}
    assert not suspended & stack, suspended & stack
