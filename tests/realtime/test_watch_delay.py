"""The spectator delay over the game socket, against real servers (memory and Redis buses):
a delayed spectator never holds a version newer than the delay allows, players play live."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.realtime.helpers import Server, WsClient, cookie_of

pytestmark = pytest.mark.anyio


async def account(server: Server, name: str) -> httpx.AsyncClient:
    """A REST client signed in as a new account (rated tables seat accounts only)."""
    client = httpx.AsyncClient(base_url=server.http, timeout=15)
    r = await client.post("/api/users", json={"username": name, "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    return client


async def rated_game(
    server: Server, names: tuple[str, str], delay: dict[str, int]
) -> tuple[int, list[httpx.AsyncClient]]:
    host, other = await account(server, names[0]), await account(server, names[1])
    body = {"players": 2, "first_player": 0, "rated": True, "spectator_delay": delay}
    r = await host.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    game = r.json()
    r = await other.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert r.status_code == 200, r.text
    assert (await host.post(f"/api/games/{game['id']}/start")).status_code == 200
    return game["id"], [host, other]


async def play_one(game_id: int, clients: list[httpx.AsyncClient]) -> int:
    """The seat to act plays its first legal action over HTTP; the new version."""
    for client in clients:
        state = (await client.get(f"/api/games/{game_id}/state")).json()
        if state["legal_actions"]:
            body = {"version": state["version"], "action": state["legal_actions"][0]}
            r = await client.post(f"/api/games/{game_id}/actions", json=body)
            assert r.status_code == 200, r.text
            return r.json()["version"]
    raise AssertionError("nobody may act")


def versions(frames: list[dict[str, Any]]) -> list[int]:
    """The document versions and log seqs a socket was sent."""
    out = []
    for f in frames:
        if f["type"] in ("state", "patch"):
            out.append(f["version"])
        elif f["type"] == "log":
            out.append(f["seq"])
    return out


async def test_a_move_delay_holds_every_spectator_frame_back(server: Server) -> None:
    tag = str(time.monotonic_ns())[-8:]
    game_id, clients = await rated_game(server, (f"dm{tag}", f"dn{tag}"), {"moves": 2})
    player = await WsClient("player").open(server.ws(game_id), cookie_of(clients[0]))
    spectator = await WsClient("spectator").open(server.ws(game_id))
    await spectator.at_version(0)
    try:
        for k in range(1, 7):
            start = len(spectator.frames)
            assert await play_one(game_id, clients) == k
            await player.at_version(k)  # the player holds the move at once
            allowed = max(0, k - 2)
            await spectator.until(lambda a=allowed: spectator.version >= a)
            await spectator.roundtrip()  # everything sent to it so far has arrived
            seen = versions(spectator.frames[start:])
            assert all(v <= allowed for v in seen), (k, seen)
            assert spectator.version == allowed
        # The spectator's document is the delayed REST view of the same version.
        rest = (
            await httpx.AsyncClient(base_url=server.http).get(f"/api/games/{game_id}/state")
        ).json()
        assert rest["version"] == spectator.version == 4
        assert spectator.doc is not None and spectator.doc["view"] == rest["view"]
        # The players see that someone watches, though not from their room.
        await player.until(
            lambda: any(f["type"] == "presence" and f["spectators"] == 1 for f in player.frames)
        )
    finally:
        await player.close()
        await spectator.close()
        for c in clients:
            await c.aclose()


async def test_a_seconds_delay_shows_a_move_no_sooner(server: Server) -> None:
    tag = str(time.monotonic_ns())[-8:]
    game_id, clients = await rated_game(server, (f"ds{tag}", f"dt{tag}"), {"seconds": 2})
    spectator = await WsClient("spectator").open(server.ws(game_id))
    await spectator.at_version(0)
    try:
        began = time.time()
        assert await play_one(game_id, clients) == 1
        await spectator.at_version(1, timeout=15)
        seen_after = time.time() - began
        assert seen_after >= 2.0, seen_after  # committed after `began`: shown 2 s after that
        assert seen_after < 2.0 + 10, seen_after
    finally:
        await spectator.close()
        for c in clients:
            await c.aclose()


@pytest.mark.server
async def test_two_instances_delay_spectators_and_share_their_chat(
    redis_url: str, tmp_path: Any, make_migrated_postgres_db: Any
) -> None:
    """Players on A and B, delayed spectators on both: moves made on either instance never
    reach a spectator early, and chat crosses between the players' and the delayed rooms, on
    the same instance (no bus round trip) and across instances."""
    url = make_migrated_postgres_db()
    a = Server(tmp_path / "a", url, redis_url)
    b = Server(tmp_path / "b", url, redis_url)
    for s in (a, b):
        s.log.parent.mkdir()
    a.start()
    b.start()
    opened: list[WsClient] = []
    try:
        game_id, clients = await rated_game(a, ("inst_a", "inst_b"), {"moves": 2})
        watcher = await account(b, "inst_watch")
        seat0 = await WsClient("seat0@A").open(a.ws(game_id), cookie_of(clients[0]))
        seat1 = await WsClient("seat1@B").open(b.ws(game_id), cookie_of(clients[1]))
        spec_a = await WsClient("spec@A").open(a.ws(game_id))
        spec_b = await WsClient("spec@B").open(b.ws(game_id), cookie_of(watcher))
        opened = [seat0, seat1, spec_a, spec_b]
        for ws in opened:
            await ws.at_version(0)
        await seat0.until(
            lambda: any(f["type"] == "presence" and f["spectators"] == 2 for f in seat0.frames)
        )
        for k in range(1, 6):
            starts = [len(spec_a.frames), len(spec_b.frames)]
            mover = next(ws for ws in (seat0, seat1) if ws.doc and ws.doc["legal_actions"])
            reply = await mover.act(mover.doc["legal_actions"][0], f"m{k}")
            assert reply["type"] == "ack" and reply["version"] == k, reply
            for ws in (seat0, seat1):
                await ws.at_version(k)
            allowed = max(0, k - 2)
            for spec, start in zip((spec_a, spec_b), starts, strict=True):
                await spec.until(lambda s=spec, a_=allowed: s.version >= a_)
                await spec.roundtrip()
                seen = versions(spec.frames[start:])
                assert all(v <= allowed for v in seen), (spec.name, k, seen)
        # A delayed spectator's line reaches the players on its own instance and on the other.
        await spec_b.send({"type": "chat", "text": "from the stands"})
        for ws in (seat1, seat0, spec_a):
            await ws.frame(lambda f: f["type"] == "chat" and f["text"] == "from the stands")
        await seat0.send({"type": "chat", "text": "from the table"})
        for ws in (spec_a, spec_b, seat1):
            await ws.frame(lambda f: f["type"] == "chat" and f["text"] == "from the table")
        assert spec_a.doc == spec_b.doc
    finally:
        for ws in opened:
            await ws.close()
        a.stop()
        b.stop()
