"""A server SIGKILLed mid-game and restarted; two instances on one Redis push each other's moves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.realtime.helpers import Server, WsClient, cookie_of, new_game, rest_doc

pytestmark = pytest.mark.anyio


async def _move(mover: WsClient, tag: str) -> int:
    reply = await mover.act(mover.doc["legal_actions"][0], tag)
    assert reply["type"] == "ack", reply
    return reply["version"]


def _mover(clients: list[WsClient]) -> WsClient:
    return next(ws for ws in clients if ws.doc and ws.doc["legal_actions"])


async def _reconnect(ws: WsClient, deadline_s: float = 20) -> None:
    """What connection.mjs does: reopen with backoff, then ask for what was missed."""
    version = ws.version
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline_s
    while True:
        try:
            await ws.open(ws.url, ws.headers.get("Cookie"))
            break
        except OSError:
            if loop.time() > end:
                raise
            await asyncio.sleep(0.2)
    await ws.send({"type": "resync", "version": version})


async def test_sigkill_mid_game_then_restart_loses_nothing(fresh_server: Server) -> None:
    server = fresh_server
    gid, players, _ = await new_game(server)
    seats = [
        await WsClient(f"seat{i}").open(server.ws(gid), cookie_of(c)) for i, c in enumerate(players)
    ]
    watcher = await WsClient("spectator").open(server.ws(gid))
    everyone = [*seats, watcher]
    acked = 0
    for i in range(4):
        await seats[0].at_version(acked)
        await seats[1].at_version(acked)
        acked = await _move(_mover(seats), f"before{i}")
    server.kill()
    for ws in everyone:
        await ws.until(lambda ws=ws: ws.closed is not None)
    server.start()  # same port, same database file and key
    for ws in everyone:
        await _reconnect(ws)
    for ws in everyone:
        await ws.at_version(acked)
        await ws.roundtrip()
        assert ws.version == acked  # every acknowledged move survived
    for ws, rest in zip(everyone, [*players, None], strict=True):
        client = rest or httpx.AsyncClient(base_url=server.http)
        expected = (await client.get(f"/api/games/{gid}/state")).json()
        assert ws.doc == rest_doc(expected)
    # The game goes on, and everyone keeps following by patches.
    for i in range(3):
        v = await _move(_mover(seats), f"after{i}")
        for ws in everyone:
            await ws.at_version(v)
    log = (await players[0].get(f"/api/games/{gid}/log")).json()
    assert [m["seq"] for m in log["moves"]] == list(range(1, acked + 4))
    for ws in everyone:
        await ws.close()


@pytest.mark.server
async def test_two_instances_on_one_redis_push_each_others_moves(
    redis_url: str, tmp_path: Path, make_migrated_postgres_db: Callable[[], str]
) -> None:
    url = make_migrated_postgres_db()
    a = Server(tmp_path / "a", url, redis_url)
    b = Server(tmp_path / "b", url, redis_url)
    for s in (a, b):
        s.log.parent.mkdir()
    a.start()
    b.start()
    try:
        gid, players, _ = await new_game(a)
        # Seat 0 and a spectator on A; seat 1 and a spectator on B (same cookies work on both).
        seat0 = await WsClient("seat0@A").open(a.ws(gid), cookie_of(players[0]))
        seat1 = await WsClient("seat1@B").open(b.ws(gid), cookie_of(players[1]))
        watch_a = await WsClient("spec@A").open(a.ws(gid))
        watch_b = await WsClient("spec@B").open(b.ws(gid))
        everyone = [seat0, seat1, watch_a, watch_b]
        for ws in everyone:
            await ws.at_version(0)
        # Presence adds up across instances.
        await seat0.until(
            lambda: any(
                f["type"] == "presence"
                and f["spectators"] == 2
                and all(s["connected"] for s in f["seats"])
                for f in seat0.frames
            )
        )
        version = 0
        for i in range(8):
            version = await _move(_mover([seat0, seat1]), f"x{i}")
            for ws in everyone:
                await ws.at_version(version)
        # A move over HTTP on B reaches A's sockets too.
        to_act = (await players[0].get(f"/api/games/{gid}/state")).json()["to_act"]
        async with httpx.AsyncClient(base_url=b.http, cookies=players[to_act].cookies) as rest_b:
            state = (await rest_b.get(f"/api/games/{gid}/state")).json()
            body = {"version": state["version"], "action": state["legal_actions"][0]}
            assert (await rest_b.post(f"/api/games/{gid}/actions", json=body)).status_code == 200
        for ws in everyone:
            await ws.at_version(version + 1)
        # Chat said on B is heard on A.
        await seat1.send({"type": "chat", "text": "from B"})
        await seat0.frame(lambda f: f["type"] == "chat" and f["text"] == "from B")
        await watch_a.frame(lambda f: f["type"] == "chat" and f["text"] == "from B")
        for x, y in ((watch_a, watch_b), (seat0, seat0)):
            assert x.doc == y.doc
        for ws in everyone:
            await ws.close()
    finally:
        a.stop()
        b.stop()
