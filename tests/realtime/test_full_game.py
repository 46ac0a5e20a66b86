"""Two seats and a spectator follow a whole game over sockets (memory:// and redis:// buses).

Each client rebuilds its document from the first state and then patches alone; after every move
it must equal GET /api/games/{id}/state for that viewer. Every frame to the spectator and to the
other seat is scanned for the secret card ids of each hand, Reef choice and deck (R-60).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

import app.engine as rules
from tests.realtime.helpers import Server, WsClient, cookie_of, new_game, rest_doc

pytestmark = pytest.mark.anyio


def _snapshot(server: Server, game_id: int) -> tuple[int, Any]:
    """The engine state straight from the database (the test's own ground truth)."""
    db = Path(server.env["SEADRAGONS_DATABASE_URL"].removeprefix("sqlite:///"))
    with sqlite3.connect(db) as conn:
        version, snap = conn.execute(
            "SELECT version, snapshot FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return version, rules.state_from_json(json.loads(snap))


def _ids_in(data: Any) -> set[str]:
    """Every JSON string in `data` that could be a card id."""
    return set(re.findall(r'"([A-Za-z0-9_-]+)"', json.dumps(data)))


def _secrets(state: Any, public_before: set[str]) -> dict[int | None, set[str]]:
    """Card ids secret from each seat's opponents right now; None: secret from everyone.

    Ids that were public in the previous version are left out: a card taken from the market
    into a hand was seen by all (the log says which one).
    """
    out: dict[int | None, set[str]] = {None: set()}
    for deck in state.decks.values():
        out[None] |= set(deck)  # deck order and content: secret from everyone
    for seat, p in enumerate(state.players):
        out[seat] = set(p.hand) | set(p.reefs) | set(getattr(p, "treasures", ()))
    for d in state.pending:
        out[state.turn.seat] |= set(d.get("cards", ()))
    return {k: v - public_before for k, v in out.items()}


def _leaks(
    raw: list[str], viewer: int | None, secrets: dict[int | None, set[str]], known: set[str]
) -> set[str]:
    # A seat knows the cards it held or chose among, even once they went back under a deck.
    hidden = secrets[None] - known
    for seat, ids in secrets.items():
        if seat is not None and seat != viewer:
            hidden |= ids
    return {card for text in raw for card in hidden if f'"{card}"' in text}


async def _state(client: httpx.AsyncClient, game_id: int) -> dict[str, Any]:
    r = await client.get(f"/api/games/{game_id}/state")
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("expansion", [False, True], ids=["base", "expansion"])
async def test_two_seats_and_a_spectator_follow_a_whole_game(
    server: Server, expansion: bool
) -> None:
    gid, players, _code = await new_game(server, expansion=expansion)
    anon = httpx.AsyncClient(base_url=server.http, timeout=15)
    seats = [
        await WsClient(f"seat{i}").open(server.ws(gid), cookie_of(c)) for i, c in enumerate(players)
    ]
    watcher = await WsClient("spectator").open(server.ws(gid))  # no session at all
    everyone = [*seats, watcher]
    for ws in everyone:
        await ws.at_version(0)
    assert [ws.seat for ws in everyone] == [0, 1, None]
    rng = random.Random(5)
    _v, state = _snapshot(server, gid)
    public = _ids_in(rules.view_for(state, None))
    seen = [0, 0, 0]  # frames already scanned, per client
    known: dict[int, set[str]] = {0: set(), 1: set()}
    version = 0
    while True:
        # Per viewer: the rebuilt document equals what the REST API says.
        states = await asyncio.gather(*(_state(rest, gid) for rest in [*players, anon]))
        for ws, expected in zip(everyone, states, strict=True):
            assert expected["version"] == version == ws.version
            assert ws.doc == rest_doc(expected)
        db_version, state = _snapshot(server, gid)
        assert db_version == version
        secrets = _secrets(state, public)
        for seat in (0, 1):
            known[seat] |= secrets[seat]
        if not state.over:
            for i, ws in enumerate(everyone):
                own = known[ws.seat] if ws.seat is not None else set()
                leaked = _leaks(ws.raw[seen[i] :], ws.seat, secrets, own)
                assert not leaked, (ws.name, version, leaked)
                seen[i] = len(ws.raw)
        public |= _ids_in(rules.view_for(state, None))
        if state.over:
            break
        mover = next(ws for ws in seats if ws.doc and ws.doc["legal_actions"])
        action = (
            rng.choice(mover.doc["legal_actions"]) if version % 2 else mover.doc["legal_actions"][0]
        )
        reply = await mover.act(action, f"m{version}")
        assert reply["type"] == "ack", reply
        assert reply["version"] == version + 1
        assert mover.version == version + 1  # the patch came before the ack
        version += 1
        for ws in everyone:
            await ws.at_version(version)
            await ws.roundtrip()  # the log frames of this move have arrived too
    for ws in everyone:
        assert ws.doc is not None and ws.doc["view"]["over"] is True
        kinds = {f["type"] for f in ws.frames}
        assert {"state", "patch", "log", "presence", "status"} <= kinds, kinds
        logs = [f for f in ws.frames if f["type"] == "log"]
        assert [f["seq"] for f in logs] == list(range(1, version + 1))
        assert all(isinstance(t, str) and t for f in logs for t in f["text"])
        # One state on connect, then patches only: nothing was resent in full.
        assert sum(f["type"] == "state" for f in ws.frames) == 1
    turns = [f for f in seats[0].frames if f["type"] == "your_turn"]
    assert turns and all(f["seat"] == 0 for f in turns)
    assert not any(f["type"] == "your_turn" for f in watcher.frames)
    for ws in everyone:
        await ws.close()
    for c in [*players, anon]:
        await c.aclose()
