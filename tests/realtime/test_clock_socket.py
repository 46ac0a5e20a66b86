"""The turn clock on the socket: in every document, the same for every viewer, patched
with each turn; and an open socket marks its seat as connected for "your turn" notices."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.realtime.helpers import Server, WsClient, cookie_of, new_game

pytestmark = pytest.mark.anyio


def _clock_ops(ws: WsClient) -> list[dict[str, Any]]:
    return [
        op
        for f in ws.frames
        if f["type"] == "patch"
        for op in f["ops"]
        if op["path"] == "/clock" or op["path"].startswith("/clock/")
    ]


async def test_every_viewer_holds_the_same_clock_and_it_follows_each_turn(server: Server) -> None:
    clock = {"mode": "live", "initial": 3600, "per_turn": 30}
    gid, players, _ = await new_game(server, 2, clock=clock)
    seat0 = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    seat1 = await WsClient("seat1").open(server.ws(gid), cookie_of(players[1]))
    watcher = await WsClient("watcher").open(server.ws(gid))
    for ws in (seat0, seat1, watcher):
        await ws.at_version(0)
    states = [next(f for f in ws.frames if f["type"] == "state") for ws in (seat0, seat1, watcher)]
    http = (await players[0].get(f"/api/games/{gid}/state")).json()["clock"]
    assert all(s["clock"] == http for s in states)
    assert http["mode"] == "live" and http["remaining"] == [3630.0, 3600.0]
    # Seat 0 plays its whole turn over the socket: the clock is patched when the turn ends.
    while not _clock_ops(watcher):
        version = seat0.version
        assert seat0.doc and seat0.doc["legal_actions"], "seat 0 must act on turn 1"
        reply = await seat0.act(seat0.doc["legal_actions"][0], f"m{version}")
        assert reply["type"] == "ack", reply
        await watcher.at_version(version + 1)
    for ws in (seat0, seat1):
        await ws.at_version(watcher.version)
    ops = [_clock_ops(ws) for ws in (seat0, seat1, watcher)]
    assert ops[0] and all(o == ops[0] for o in ops)  # one patch of the clock, the same for all
    after = (await players[1].get(f"/api/games/{gid}/state")).json()["clock"]
    assert after["seat"] == 1 and after["turn"] == 2
    for ws in (seat0, seat1, watcher):  # rebuilt from the patches: the clock GET /state shows
        assert ws.doc is not None and ws.doc["clock"] == after
    for ws in (seat0, seat1, watcher):
        await ws.close()


def _socket_until(server: Server, gid: int, seat: int) -> Any:
    engine = create_engine(server.env["SEADRAGONS_DATABASE_URL"])
    try:
        with engine.connect() as conn:
            return conn.execute(
                text("SELECT socket_until FROM seats WHERE game_id = :g AND seat = :s"),
                {"g": gid, "s": seat},
            ).scalar()
    finally:
        engine.dispose()


async def test_an_open_socket_marks_its_seat_until_it_closes(server: Server) -> None:
    gid, players, _ = await new_game(server, 2)
    assert _socket_until(server, gid, 0) is None
    ws = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    deadline = time.monotonic() + 10
    while _socket_until(server, gid, 0) is None:
        assert time.monotonic() < deadline, "the socket did not mark its seat"
        await asyncio.sleep(0.05)
    assert _socket_until(server, gid, 1) is None  # nobody watches from seat 1
    await ws.close()
    while _socket_until(server, gid, 0) is not None:
        assert time.monotonic() < deadline + 10, "closing the socket did not clear the mark"
        await asyncio.sleep(0.05)


async def test_a_vacation_reaches_open_sockets_without_a_move(server: Server) -> None:
    """A clock changed without a move (a vacation here) is sent to the sockets at once."""
    clock = {"mode": "daily", "per_turn": 86400, "bank_cap": 3600}
    gid, players, _ = await new_game(server, 2, clock=clock)
    account = {"username": "ann_away", "password": "correct horse battery"}
    assert (await players[0].post("/api/users", json=account)).status_code == 201
    watcher = await WsClient("watcher").open(server.ws(gid))
    await watcher.at_version(0)
    assert watcher.doc is not None and watcher.doc["clock"]["vacation_until"] == [None, None]
    r = await players[0].post("/api/me/vacation", json={"days": 2})
    assert r.status_code == 201, r.text
    back = r.json()["active"]["ends_at"]

    def away() -> bool:
        return watcher.doc is not None and watcher.doc["clock"]["vacation_until"] == [back, None]

    await watcher.until(away)
    http = (await players[1].get(f"/api/games/{gid}/state")).json()["clock"]
    assert watcher.doc["clock"] == http and watcher.version == 0  # no move was made
    await watcher.close()
