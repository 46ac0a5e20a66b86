"""Input at the socket's edge that the server cannot echo or the engine cannot place: refused
with a clean error before anything is decided, the socket kept, nothing committed."""

from __future__ import annotations

import httpx
import pytest

from app.realtime.protocol import ACTION_ID_MAX, ACTION_ID_MIN
from tests.realtime.helpers import Server, WsClient, cookie_of, new_game

pytestmark = pytest.mark.anyio


async def _moves(client: httpx.AsyncClient, gid: int) -> list[int]:
    return [m["seq"] for m in (await client.get(f"/api/games/{gid}/log")).json()["moves"]]


async def test_an_action_id_the_server_cannot_echo_is_refused_before_the_move(
    server: Server,
) -> None:
    gid, players, _ = await new_game(server)
    mover = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    other = await WsClient("seat1").open(server.ws(gid), cookie_of(players[1]))
    await mover.at_version(0)
    await other.at_version(0)
    action = mover.doc["legal_actions"][0]  # legal: only the id is wrong
    bad_ids = [ACTION_ID_MAX + 1, 2**64, ACTION_ID_MIN - 1, 10**40]
    for bad in bad_ids:
        start = len(mover.frames)
        await mover.send({"type": "action", "id": bad, "version": 0, "action": action})
        err = await mover.frame(lambda f: f["type"] in ("error", "ack"), start)
        assert err["type"] == "error" and err["code"] == "bad_message", (bad, err)
        assert err["id"] is None and "id" in err["message"], err
        await mover.roundtrip()  # the socket is still there and answering
    # A malformed frame whose id is out of range too: the error cannot echo it either.
    start = len(mover.frames)
    await mover.send({"type": "action", "id": 2**64, "action": action})
    err = await mover.frame(lambda f: f["type"] == "error", start)
    assert err["code"] == "bad_message" and err["id"] is None, err
    await mover.roundtrip()
    await other.roundtrip()
    assert mover.closed is None and other.closed is None
    assert mover.version == other.version == 0
    assert not any(f["type"] == "patch" for f in mover.frames + other.frames)
    assert await _moves(players[0], gid) == []
    # The ends of the range are ids like any other: echoed exactly.
    reply = await mover.act(action, ACTION_ID_MIN)
    assert reply["type"] == "ack" and reply["id"] == ACTION_ID_MIN, reply
    await other.at_version(1)
    follower = next(ws for ws in (mover, other) if ws.doc["legal_actions"])
    reply = await follower.act(follower.doc["legal_actions"][0], ACTION_ID_MAX)
    assert reply["type"] == "ack" and reply["id"] == ACTION_ID_MAX, reply
    assert await _moves(players[0], gid) == [1, 2]
    for ws in (mover, other):
        await ws.close()


async def test_huge_coordinates_get_the_same_clean_refusal_on_both_roads_R01(
    server: Server,
) -> None:
    gid, players, _ = await new_game(server)
    ws = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    card = next(a for a in ws.doc["legal_actions"] if a["type"] == "place")["card"]
    cases = {
        # Not squares at all: no reader could hold these numbers exactly, none is echoed.
        "huge": ([[10**30, 10**30]], "malformed", {}),
        "past_64_bits": ([[2**64, 0], [0, -(2**63) - 1]], "malformed", {}),
        # Squares, but off the board: named in the facts; the absurd one beside them is not.
        "mixed": ([[0, 15], [10**30, 0]], "off_board", {"squares": [[0, 15]]}),
    }
    for name, (cells, reason, facts) in cases.items():
        action = {"type": "place", "card": card, "cells": cells}
        reply = await ws.act(action, name)
        assert reply["type"] == "error" and reply["code"] == "bad_action", (name, reply)
        assert reply["reason"]["code"] == reason and reply["reason"]["facts"] == facts, reply
        r = await players[0].post(
            f"/api/games/{gid}/actions", json={"version": 0, "action": action}
        )
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "bad_action" and err["reason"] == reply["reason"], (name, err)
    await ws.roundtrip()
    assert ws.closed is None and ws.version == 0
    assert await _moves(players[0], gid) == []
    await ws.close()
