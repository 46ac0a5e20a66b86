"""`WS /ws/watch` against real servers: one socket for every live game, updates throttled to
one per game per second, each under 2 KB, nothing secret (R-60), the featured game switching
when it ends, following an account into its next game, and clear errors for bad queries."""

from __future__ import annotations

import asyncio
import json
import time
from itertools import pairwise
from typing import Any

import httpx
import pytest

from tests.realtime.helpers import Server, WsClient, new_game
from tests.realtime.test_watch_delay import account, play_one, rated_game

pytestmark = pytest.mark.anyio


def watch_url(server: Server, query: str = "") -> str:
    return f"ws://127.0.0.1:{server.port}/ws/watch{query}"


def games_in(frame: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {g["id"]: g for g in frame.get("games", [])}


async def hands(server: Server, game_id: int, clients: list[httpx.AsyncClient]) -> set[str]:
    """Every card the seats hold in secret (their hands and Reef cards)."""
    out: set[str] = set()
    for c in clients:
        view = (await c.get(f"/api/games/{game_id}/state")).json()["view"]
        for p in view["players"]:
            out.update(p.get("hand") or [])
            out.update(p.get("reefs") or [])
    return out


async def test_one_socket_lists_live_games_with_throttled_small_public_updates(
    server: Server,
) -> None:
    game_id, clients, _ = await new_game(server, players=2)
    secrets = await hands(server, game_id, clients)
    watcher = await WsClient("watch").open(watch_url(server))
    try:
        first = await watcher.frame(lambda f: f["type"] == "watch" and f["full"])
        assert game_id in games_in(first) and game_id in first["order"]
        start_v = games_in(first)[game_id]["v"]
        for _ in range(4):  # moves faster than the tick: coalesced into one update a second
            await play_one(game_id, clients)
        await watcher.frame(
            lambda f: (
                f["type"] == "watch" and games_in(f).get(game_id, {}).get("v", -1) >= start_v + 4
            ),
            timeout=15,
        )
        updates = [
            (i, f) for i, f in enumerate(watcher.frames) if f["type"] == "watch" and not f["full"]
        ]
        assert updates
        # At most one frame per tick: every update frame carries a game at most once, and the
        # server's tick is 1 s (frames arriving closer than that would mean a second read).
        for _, f in updates:
            ids = [g["id"] for g in f["games"]]
            assert len(ids) == len(set(ids))
        for text in watcher.raw:
            frame = json.loads(text)
            for g in frame.get("games", []):
                size = len(json.dumps(g, separators=(",", ":"), ensure_ascii=False).encode())
                assert size < 2048, size
            assert not any(f'"{c}"' in text for c in secrets)  # no secret card
    finally:
        await watcher.close()
        for c in clients:
            await c.aclose()


async def test_update_frames_come_at_most_once_a_second(server: Server) -> None:
    game_id, clients, _ = await new_game(server, players=2)
    watcher = await WsClient("watch").open(watch_url(server))
    arrivals: list[float] = []
    try:
        await watcher.frame(lambda f: f["type"] == "watch" and f["full"])
        seen = len(watcher.frames)
        deadline = time.monotonic() + 6
        while time.monotonic() < deadline:  # a move every ~0.1 s: far faster than the tick
            began = time.monotonic()
            await play_one(game_id, clients)
            # Paced, not flat out: a fast server would end the game (about 70 moves) in 6 s.
            await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - began)))
            while len(watcher.frames) > seen:
                if watcher.frames[seen]["type"] == "watch":
                    arrivals.append(time.monotonic())
                seen += 1
        gaps = [b - a for a, b in pairwise(arrivals)]
        assert len(arrivals) >= 3, arrivals
        # Ticks are 1 s apart on the server; arrival jitter on a busy machine is allowed for.
        assert min(gaps) > 0.6, gaps
        assert len(arrivals) <= 6 + 1
    finally:
        await watcher.close()
        for c in clients:
            await c.aclose()


async def test_delayed_tables_are_summarised_as_their_spectators_see_them(server: Server) -> None:
    tag = str(time.monotonic_ns())[-8:]
    game_id, clients = await rated_game(server, (f"wa{tag}", f"wb{tag}"), {"moves": 3})
    watcher = await WsClient("watch").open(watch_url(server))
    try:
        await watcher.frame(lambda f: f["type"] == "watch" and game_id in games_in(f))
        for k in range(1, 6):
            assert await play_one(game_id, clients) == k
        await watcher.frame(lambda f: games_in(f).get(game_id, {}).get("v") == 2, timeout=15)
        for f in watcher.frames:
            g = games_in(f).get(game_id)
            assert g is None or g["v"] <= 2, g["v"]
    finally:
        await watcher.close()
        for c in clients:
            await c.aclose()


async def test_the_featured_game_switches_when_it_ends(fresh_server: Server) -> None:
    server = fresh_server  # no other game live: the first is featured
    first_id, clients, _ = await new_game(server, players=2)
    tv = await WsClient("tv").open(watch_url(server, "?view=featured"))
    try:
        frame = await tv.frame(lambda f: f["type"] == "featured" and f["game"] is not None)
        assert frame["game"]["id"] == first_id
        other_id, other_clients, _ = await new_game(server, players=2)
        for _ in range(1000):
            state = (await clients[0].get(f"/api/games/{first_id}/state")).json()
            if state["status"] != "live":
                break
            await play_one(first_id, clients)
            # Kept while it is live, though a newer game is now as interesting.
            assert all(f["game"]["id"] == first_id for f in tv.frames if f["type"] == "featured")
        switched = await tv.frame(
            lambda f: f["type"] == "featured" and f["game"]["id"] != first_id, timeout=15
        )
        assert switched["game"]["id"] == other_id
    finally:
        await tv.close()
        for c in clients + other_clients:
            await c.aclose()


async def test_following_an_account_opens_its_next_game(server: Server) -> None:
    tag = str(time.monotonic_ns())[-8:]
    name = f"fo{tag}"
    host = await account(server, name)
    follower = await WsClient("follow").open(watch_url(server, f"?view=follow&user={name}"))
    try:
        idle = await follower.frame(lambda f: f["type"] == "follow")
        assert idle == {"type": "follow", "user": name, "game_id": None}
        game = (await host.post("/api/games", json={"players": 2})).json()
        await host.post(f"/api/games/{game['id']}/bots", json={"level": "random"})
        assert (await host.post(f"/api/games/{game['id']}/start")).status_code == 200
        started = await follower.frame(
            lambda f: f["type"] == "follow" and f["game_id"] is not None, timeout=15
        )
        assert started["game_id"] == game["id"]
    finally:
        await follower.close()
        await host.aclose()


@pytest.mark.parametrize(
    "query", ["?view=bogus", "?view=follow", "?view=follow&user=no%20spaces", "?user=ann"]
)
async def test_bad_queries_are_told_and_closed(server: Server, query: str) -> None:
    sock = await WsClient("bad").open(watch_url(server, query))
    try:
        err = await sock.frame(lambda f: f["type"] == "error")
        assert err["code"] == "bad_request"
        await sock.until(lambda: sock.closed is not None)
        assert sock.closed[0] == 1008
    finally:
        await sock.close()


async def test_only_ping_is_taken(server: Server) -> None:
    sock = await WsClient("ping").open(watch_url(server))
    try:
        await sock.roundtrip()
        start = len(sock.frames)
        await sock.send({"type": "resync", "version": 1})
        err = await sock.frame(lambda f: f["type"] == "error", start)
        assert err["code"] == "unknown_type"
    finally:
        await sock.close()
