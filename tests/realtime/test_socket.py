"""The socket against a real server, on each bus: access, bad input, duplicates, rejoin, chat."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.realtime.protocol import ABSURD_FRAME_BYTES, MAX_FRAME_BYTES
from app.settings import Settings
from tests.realtime.helpers import Server, WsClient, cookie_of, guest, new_game, rest_doc

pytestmark = pytest.mark.anyio


async def _follow(server: Server, gid: int, players: list[httpx.AsyncClient]) -> list[WsClient]:
    seats = [
        await WsClient(f"seat{i}").open(server.ws(gid), cookie_of(c)) for i, c in enumerate(players)
    ]
    for ws in seats:
        await ws.at_version(0)
    return seats


async def _play(seats: list[WsClient], moves: int) -> None:
    """Play first-legal moves over the sockets; every seat follows each one."""
    for _ in range(moves):
        mover = next(ws for ws in seats if ws.doc and ws.doc["legal_actions"])
        version = mover.version
        reply = await mover.act(mover.doc["legal_actions"][0], f"p{version}")
        assert reply["type"] == "ack", reply
        for ws in seats:
            await ws.at_version(version + 1)


async def test_origin_is_checked_on_the_upgrade(server: Server) -> None:
    gid, players, _ = await new_game(server)
    cookie = cookie_of(players[0])
    with pytest.raises(InvalidStatus) as refused:
        await connect(
            server.ws(gid),
            additional_headers={"Cookie": cookie, "Origin": "http://evil.example"},
            proxy=None,
        )
    assert refused.value.response.status_code == 403
    # The configured origin, the server's own origin, and non-browser clients (no Origin) pass.
    for origin in ("http://game.example", server.http, None):
        ws = await WsClient("ok").open(server.ws(gid), cookie, origin=origin)
        await ws.at_version(0)
        assert ws.seat == 0
        await ws.close()


async def test_private_games_need_a_seat_or_the_invite_code(server: Server) -> None:
    gid, players, code = await new_game(server, visibility="private")
    stranger = await WsClient("stranger").open(server.ws(gid))
    refusal = await stranger.frame(lambda f: f["type"] == "error")
    assert refusal["code"] == "not_found"  # a private game is 404 to strangers
    await stranger.until(lambda: stranger.closed is not None)
    assert stranger.closed[0] == 1008
    wrong = await WsClient("wrong").open(server.ws(gid, "nope"))
    assert (await wrong.frame(lambda f: f["type"] == "error"))["code"] == "not_found"
    invited = await WsClient("invited").open(server.ws(gid, code))
    await invited.at_version(0)
    assert invited.seat is None and invited.doc["legal_actions"] == []
    assert invited.wire is not None and invited.wire["legal"] is None  # spectators: nothing
    seated = await WsClient("seated").open(server.ws(gid), cookie_of(players[1]))
    await seated.at_version(0)
    assert seated.seat == 1
    for ws in (invited, seated):
        await ws.close()


async def test_bad_input_gets_an_error_and_the_socket_stays_usable(server: Server) -> None:
    gid, players, _ = await new_game(server)
    ws = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    cases = [
        ("x" * (MAX_FRAME_BYTES + 1), "frame_too_large"),
        ('{"type": "action", "id": 1, ', "bad_json"),
        ("[" * 5000, "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"no_type": true}', "unknown_type"),
        ('{"type": "action", "id": "z", "version": "0", "action": {}}', "bad_message"),
        ('{"type": "action", "id": "z", "version": 0, "action": {}, "extra": 1}', "bad_message"),
        ('{"type": "resync"}', "bad_message"),
        ('{"type": "action", "id": "z", "version": 0, "action": {"type": "fly"}}', "bad_action"),
    ]
    for text, code in cases:
        start = len(ws.frames)
        await ws.send(text)
        err = await ws.frame(lambda f: f["type"] == "error", start)
        assert err["code"] == code, (text[:40], err)
        await ws.roundtrip()  # still answering
    start = len(ws.frames)
    await ws.conn.send(b'{"type": "ping"}')  # binary frames are refused, not parsed
    assert (await ws.frame(lambda f: f["type"] == "error", start))["code"] == "bad_message"
    await ws.roundtrip()
    assert ws.version == 0 and sum(f["type"] == "patch" for f in ws.frames) == 0
    # An absurd frame is not answered but closed: 1009, message too big.
    await ws.send("y" * (ABSURD_FRAME_BYTES + 1))
    await ws.until(lambda: ws.closed is not None)
    assert ws.closed[0] == 1009


async def test_a_flood_is_rate_limited_then_closed(server: Server) -> None:
    gid, players, _ = await new_game(server)
    ws = await WsClient("flood").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    for _ in range(300):
        await ws.send({"type": "ping"})
    await ws.frame(lambda f: f.get("code") == "rate_limited")
    await asyncio.sleep(1.5)  # the bucket refills: the socket is usable again
    await ws.roundtrip()
    pongs = sum(f["type"] == "pong" for f in ws.frames)
    assert pongs < 200, pongs
    # Keep flooding far past the limit: the server closes the socket (1008).
    with contextlib.suppress(ConnectionClosed):
        for _ in range(3000):
            if ws.closed is not None:
                break
            await ws.send({"type": "ping"})
    await ws.until(lambda: ws.closed is not None)
    assert ws.closed[0] == 1008


async def test_acting_for_another_seat_changes_nothing(server: Server) -> None:
    gid, players, _ = await new_game(server)
    seats = await _follow(server, gid, players)
    action = seats[0].doc["legal_actions"][0]  # seat 0 is to act (first_player 0)
    reply = await seats[1].act(action, "not-mine")
    assert reply["type"] == "error" and reply["code"] == "not_your_turn"
    outsider = await guest(server, "Zed")
    stranger = await WsClient("stranger").open(server.ws(gid), cookie_of(outsider))
    await stranger.at_version(0)
    assert (await stranger.act(action, 1))["code"] == "not_seated"
    anon = await WsClient("anon").open(server.ws(gid))
    await anon.at_version(0)
    assert (await anon.act(action, 1))["code"] == "not_signed_in"
    r = await players[0].get(f"/api/games/{gid}/state")
    assert r.json()["version"] == 0
    for ws in (*seats, stranger, anon):
        await ws.roundtrip()
        assert ws.version == 0 and not any(f["type"] == "patch" for f in ws.frames)
        await ws.close()
    await outsider.aclose()


async def test_the_same_action_id_is_applied_once(server: Server) -> None:
    gid, players, _ = await new_game(server)
    seats = await _follow(server, gid, players)
    action = seats[0].doc["legal_actions"][0]
    frame = {"type": "action", "id": "dup", "version": 0, "action": action}
    # Twice back to back (a client retrying before the first answer), then once more later.
    await seats[0].send(frame)
    await seats[0].send(frame)
    await seats[0].until(lambda: sum(f["type"] == "ack" for f in seats[0].frames) == 2)
    await seats[0].send(frame)
    await seats[0].until(lambda: sum(f["type"] == "ack" for f in seats[0].frames) == 3)
    acks = [f for f in seats[0].frames if f["type"] == "ack"]
    assert {a["version"] for a in acks} == {1} and {a["id"] for a in acks} == {"dup"}
    log = (await players[0].get(f"/api/games/{gid}/log")).json()
    assert [m["seq"] for m in log["moves"]] == [1]
    # A new tab whose ids restart: the same id with another version is a new action.
    await seats[1].at_version(1)
    mover = next(ws for ws in seats if ws.doc["legal_actions"])
    reply = await mover.act(mover.doc["legal_actions"][0], "dup")
    assert reply["type"] == "ack" and reply["version"] == 2
    for ws in seats:
        await ws.close()


def _answers(frames: list[dict]) -> list[dict]:
    """The frames that answer a request: presence updates run on their own timer, at any moment."""
    return [f for f in frames if f["type"] != "presence"]


async def test_rejoin_and_resync_mid_game(server: Server) -> None:
    gid, players, _ = await new_game(server)
    seats = await _follow(server, gid, players)
    await _play(seats, 3)
    await seats[1].close()
    # Two moves while seat 1 is away, made over HTTP: sockets follow REST moves too.
    for _ in range(2):
        to_act = (await players[0].get(f"/api/games/{gid}/state")).json()["to_act"]
        state = (await players[to_act].get(f"/api/games/{gid}/state")).json()
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        r = await players[to_act].post(f"/api/games/{gid}/actions", json=body)
        assert r.status_code == 200, r.text
        await seats[0].at_version(state["version"] + 1)
    current = seats[0].version
    # Another tab / device of seat 1: a fresh socket starts from the current state.
    back = await WsClient("seat1-again").open(server.ws(gid), cookie_of(players[1]))
    await back.at_version(current)
    # The chat history follows the state once it is read: let it arrive before counting answers.
    await back.frame(lambda f: f["type"] == "chat_history")
    rest = (await players[1].get(f"/api/games/{gid}/state")).json()
    assert back.doc == rest_doc(rest)
    # Resync from an older version: the missed patches, which rebuild the same document.
    old_doc, old_version = seats[1].wire, seats[1].version
    start = len(back.frames)
    await back.send({"type": "resync", "version": old_version})
    await back.roundtrip()
    replies = _answers(back.frames[start:-1])
    assert replies and all(f["type"] == "patch" for f in replies), replies
    import jsonpatch

    doc = old_doc
    for f in replies:
        doc = jsonpatch.apply_patch(doc, f["ops"])
    assert doc == back.wire
    # Resync from nothing (or a version the server no longer has): a full state.
    start = len(back.frames)
    await back.send({"type": "resync", "version": -1})
    await back.roundtrip()
    assert [f["type"] for f in _answers(back.frames[start:])] == ["state", "pong"]
    # Current already: nothing but the pong.
    start = len(back.frames)
    asked = time.time() * 1000
    await back.send({"type": "resync", "version": current})
    await back.roundtrip()
    assert [f["type"] for f in _answers(back.frames[start:])] == ["pong"]
    # The pong carries the server's time (ms): clients count turn clocks down with it.
    assert asked - 1000 <= back.frames[-1]["now"] <= time.time() * 1000 + 1000
    # Two tabs of the same seat both follow the game.
    tab2 = await WsClient("seat1-tab2").open(server.ws(gid), cookie_of(players[1]))
    await tab2.at_version(current)
    await _play([seats[0], back, tab2], 2)
    assert tab2.doc == back.doc
    for ws in (seats[0], back, tab2):
        await ws.close()


async def test_chat_is_stored_limited_and_sent_to_everyone(server: Server) -> None:
    gid, players, _ = await new_game(server)
    seats = await _follow(server, gid, players)
    anon = await WsClient("anon").open(server.ws(gid))
    await anon.at_version(0)
    for ws in (*seats, anon):  # joined: a line said now comes as `chat`, not in the history
        await ws.frame(lambda f: f["type"] == "chat_history")
    text = '<script>alert("x")</script> hi'
    await seats[0].send({"type": "chat", "text": text})
    for ws in (*seats, anon):
        msg = await ws.frame(lambda f: f["type"] == "chat")
        assert msg["text"] == text and msg["name"] == "Ann" and msg["seat"] == 0
    start = len(anon.frames)
    await anon.send({"type": "chat", "text": "hello"})
    assert (await anon.frame(lambda f: f["type"] == "error", start))["code"] == "not_signed_in"
    start = len(seats[1].frames)
    await seats[1].send({"type": "chat", "text": "z" * 501})
    assert (await seats[1].frame(lambda f: f["type"] == "error", start))["code"] == "bad_chat"
    await seats[1].send({"type": "chat", "text": "   \n\t "})
    errors = lambda: [f for f in seats[1].frames[start:] if f["type"] == "error"]  # noqa: E731
    await seats[1].until(lambda: len(errors()) == 2)
    late = await WsClient("late").open(server.ws(gid))
    history = await late.frame(lambda f: f["type"] == "chat_history")
    assert [m["text"] for m in history["messages"]] == [text]
    for ws in (*seats, anon, late):
        await ws.close()


async def test_presence_counts_seats_and_spectators(server: Server) -> None:
    gid, players, _ = await new_game(server)
    seat0 = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))

    def last_presence(ws: WsClient) -> dict:
        return [f for f in ws.frames if f["type"] == "presence"][-1]

    def shows(connected: list[bool], spectators: int) -> bool:
        frames = [f for f in seat0.frames if f["type"] == "presence"]
        return bool(frames) and (
            [s["connected"] for s in frames[-1]["seats"]],
            frames[-1]["spectators"],
        ) == (connected, spectators)

    await seat0.until(lambda: shows([True, False], 0))
    watchers = [await WsClient(f"w{i}").open(server.ws(gid)) for i in range(2)]
    seat1 = await WsClient("seat1").open(server.ws(gid), cookie_of(players[1]))
    await seat0.until(lambda: shows([True, True], 2))
    assert [s["name"] for s in last_presence(seat0)["seats"]] == ["Ann", "P2"]
    await watchers[0].close()
    await seat1.close()
    await seat0.until(lambda: shows([True, False], 1))
    for ws in (seat0, watchers[1]):
        await ws.close()


async def test_a_socket_opened_before_the_start_gets_the_state_at_the_start(
    server: Server,
) -> None:
    host = await guest(server, "Host")
    game = (await host.post("/api/games", json={"players": 2})).json()
    gid = game["id"]
    ws = await WsClient("early").open(server.ws(gid), cookie_of(host))
    status = await ws.frame(lambda f: f["type"] == "status")
    assert status["status"] == "open"
    other = await guest(server, "Late")
    assert (await other.post(f"/api/games/{gid}/join")).status_code == 200
    await ws.frame(lambda f: f["type"] == "presence" and f["seats"][1]["name"] == "Late")
    assert (await host.post(f"/api/games/{gid}/start")).status_code == 200
    await ws.at_version(0)
    assert ws.seat == 0 and ws.doc is not None
    assert await ws.frame(lambda f: f["type"] == "status" and f["status"] == "live")
    assert json.dumps(ws.doc["view"]["players"][1]["hand"]) == "null"
    await ws.close()
    for c in (host, other):
        await c.aclose()


async def test_the_bot_in_docs_protocol_md_plays_a_whole_game(server: Server) -> None:
    """The documented example is real code: it joins, follows by patches and finishes a game."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]
    code = code.replace('asyncio.run(play("http://127.0.0.1:8000", 1, "Robo"))', "")
    namespace: dict = {}
    exec(compile(code, "docs/protocol.md", "exec"), namespace)
    host = await guest(server, "Host")
    gid = (await host.post("/api/games", json={"players": 2})).json()["id"]
    me = await WsClient("host").open(server.ws(gid), cookie_of(host))
    bot = asyncio.create_task(namespace["play"](server.http, gid, "Robo"))
    await me.frame(lambda f: f["type"] == "presence" and f["seats"][1]["name"] == "Robo")
    assert (await host.post(f"/api/games/{gid}/start")).status_code == 200
    await me.at_version(0)
    moves = 0
    while not me.doc["view"]["over"]:
        if me.doc["legal_actions"]:
            reply = await me.act(me.doc["legal_actions"][0], f"h{moves}")
            assert reply["type"] == "ack", reply
            moves += 1
        else:
            seen = me.version
            await me.until(lambda seen=seen: me.version > seen or me.doc["view"]["over"], 20)
    await asyncio.wait_for(bot, 10)  # the bot returns on `status: finished`
    assert me.version > moves > 0  # both players moved
    await me.close()
    await host.aclose()


async def test_a_move_over_the_socket_ends_a_left_mark(server: Server) -> None:
    """As over HTTP: a player who left a live game and comes back to move is back."""
    gid, players, _ = await new_game(server)
    r = await players[0].post(f"/api/games/{gid}/leave")
    assert r.status_code == 200, r.text
    seats = (await players[1].get(f"/api/games/{gid}")).json()["seats"]
    assert seats[0]["left"] is True
    ws = await WsClient("back").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    assert ws.doc is not None
    reply = await ws.act(ws.doc["legal_actions"][0], "back-1")
    assert reply["type"] == "ack", reply
    seats = (await players[1].get(f"/api/games/{gid}")).json()["seats"]
    assert seats[0]["left"] is False
    await ws.close()


async def test_signing_out_closes_that_sessions_sockets(server: Server) -> None:
    """sign-out closes the session's sockets (they hear why); others stay open."""
    gid, players, _ = await new_game(server)
    ws = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    other = await WsClient("seat1").open(server.ws(gid), cookie_of(players[1]))
    for s in (ws, other):
        await s.at_version(0)
    assert ws.doc is not None and ws.doc["legal_actions"]
    assert (await players[0].post("/api/session/logout")).status_code == 200
    await ws.until(lambda: ws.closed is not None)
    assert ws.closed[0] == 1008, ws.closed
    said = [f for f in ws.frames if f["type"] == "error"]
    assert said and said[-1]["code"] == "not_signed_in", said
    await other.roundtrip()  # the other player's socket is untouched
    assert other.closed is None
    state = (await players[1].get(f"/api/games/{gid}/state")).json()
    assert state["version"] == 0  # nothing was applied
    await other.close()


async def test_a_revoked_session_cannot_act_even_if_its_notice_was_lost(server: Server) -> None:
    """Sessions are re-read (at most every few seconds) before actions and chat lines."""
    gid, players, _ = await new_game(server)
    ws = await WsClient("seat0").open(server.ws(gid), cookie_of(players[0]))
    await ws.at_version(0)
    # Revoke the session behind the hub's back: straight in the database, no notice at all.
    import sqlite3
    from pathlib import Path

    db = Path(server.env["SEADRAGONS_DATABASE_URL"].removeprefix("sqlite:///"))
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM sessions")
    # No notice at all (as when the bus is away): the session sweep closes the socket within
    # its period, saying why.
    await ws.until(lambda: ws.closed is not None, timeout=30)
    assert ws.closed[0] == 1008, ws.closed
    said = [f for f in ws.frames if f["type"] == "error"]
    assert said and said[-1]["code"] == "not_signed_in", said
    state = (await players[1].get(f"/api/games/{gid}/state")).json()
    assert state["version"] == 0
    await ws.close()


async def test_one_user_cannot_open_unbounded_sockets(server: Server) -> None:
    MAX_SOCKETS_PER_USER = Settings().max_sockets_per_user  # the default the server runs with

    gid, players, _ = await new_game(server)
    cookie = cookie_of(players[1])
    socks = []
    for i in range(MAX_SOCKETS_PER_USER):
        ws = await WsClient(f"tab{i}").open(server.ws(gid), cookie)
        await ws.at_version(0)
        socks.append(ws)
    extra = await WsClient("one-too-many").open(server.ws(gid), cookie)
    refused = await extra.frame(lambda f: f["type"] == "error")
    assert refused["code"] == "too_many_sockets"
    await extra.until(lambda: extra.closed is not None)
    assert extra.doc is None  # it never received the game
    # Another user is not affected, and closing a tab frees a place.
    other = await WsClient("other").open(server.ws(gid), cookie_of(players[0]))
    await other.at_version(0)
    await socks.pop().close()
    again = await _reopen(server.ws(gid), cookie)
    assert again.doc is not None
    for ws in [*socks, other, again]:
        await ws.close()


async def _reopen(url: str, cookie: str | None) -> WsClient:
    """Open a socket, retrying while the server has not yet noticed an earlier close."""
    for _ in range(50):
        ws = await WsClient("again").open(url, cookie)
        await ws.until(lambda ws=ws: ws.doc is not None or ws.closed is not None)
        if ws.doc is not None:
            break
        await asyncio.sleep(0.1)
    return ws
