"""The socket's error answers to refused actions carry the engine's reason beside the code."""

from __future__ import annotations

import pytest

from tests.realtime.helpers import Server, WsClient, cookie_of, new_game

pytestmark = pytest.mark.anyio


async def test_a_refused_action_frame_says_why_R21(server: Server) -> None:
    gid, players, _ = await new_game(server)
    ws = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    legal = next(a for a in ws.doc["legal_actions"] if a["type"] == "place")
    r0 = min(r for r, _ in legal["cells"])
    c0 = min(c for _, c in legal["cells"])
    cells = [[r - r0, c - c0] for r, c in legal["cells"]]  # the same shape in the far corner
    reply = await ws.act({"type": "place", "card": legal["card"], "cells": cells}, "far")
    assert reply["type"] == "error" and reply["code"] == "illegal_placement", reply
    assert reply["reason"]["code"] == "not_touching"
    assert reply["reason"]["facts"] == {} and reply["reason"]["text"]
    # An action that does not parse: squares off the board, answered before the game.
    off = {"type": "place", "card": legal["card"], "cells": [[0, 14], [0, 15]]}
    reply = await ws.act(off, "off")
    assert reply["code"] == "bad_action"
    assert reply["reason"] == {
        "code": "off_board",
        "facts": {"squares": [[0, 15]]},
        "text": "Part of the Dragon is off the board.",
    }
    assert ws.version == 0
    await ws.close()
