"""A chat line said while the bus is away reaches the other instance's sockets once it is back:
real servers on Postgres sharing a private redis-server (never the machine's own Redis), which
is stopped and started again, or cut away from one instance only by a TCP proxy."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.realtime.helpers import PrivateRedis, Server, TcpProxy, WsClient, cookie_of, new_game

pytestmark = [pytest.mark.anyio, pytest.mark.server]  # private redis-servers, servers

# The bus's reconnect backs off to at most 5 s between tries; then one read of the chat.
CATCH_UP_BOUND_S = 5.0 + 5.0


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


def _texts(ws: WsClient) -> list[str]:
    """The lines a socket has, in order: its history and the lines heard since. A line said
    while the socket was opening can come in either (the history read after it was stored, or
    the bus); a line in both counts once."""
    lines: dict[int, str] = {}
    for f in ws.frames:
        if f["type"] == "chat_history":
            lines.update((m["id"], m["text"]) for m in f["messages"])
        elif f["type"] == "chat":
            lines[f["id"]] = f["text"]
    return [lines[i] for i in sorted(lines)]


async def _until_logged(server: Server, text: str, timeout: float = 30) -> None:
    """Wait until the server's log shows `text` (what it noticed, as an operator sees it)."""
    deadline = time.monotonic() + timeout
    while text not in server.log.read_text(errors="replace"):
        assert time.monotonic() < deadline, f"never logged: {text}"
        await asyncio.sleep(0.05)


async def _two_instances(
    tmp_path: Path, url: str, servers: list[Server], redis_a: str, redis_b: str
) -> tuple[Server, Server]:
    # The room check is left at an hour: chat must not depend on it.
    env = {"SEADRAGONS_ROOM_CHECK_SECONDS": "3600"}
    for name, bus in (("a", redis_a), ("b", redis_b)):
        (tmp_path / name).mkdir()
        servers.append(Server(tmp_path / name, url, bus, env=env).start())
    return servers[0], servers[1]


async def _table(a: Server, b: Server) -> tuple[WsClient, WsClient, WsClient]:
    """Ann on instance A, Bob and a spectator on B, one line heard over the bus."""
    gid, players, _ = await new_game(a)
    ann = await WsClient("ann").open(a.ws(gid), cookie_of(players[0]))
    bob = await WsClient("bob").open(b.ws(gid), cookie_of(players[1]))
    watcher = await WsClient("watcher").open(b.ws(gid))
    for ws in (ann, bob, watcher):
        await ws.at_version(0)
    await ann.send({"type": "chat", "text": "before"})
    await bob.until(lambda: _texts(bob) == ["before"])
    return ann, bob, watcher


async def _caught_up(ann: WsClient, bob: WsClient, watcher: WsClient) -> None:
    for ws in (bob, watcher):
        await ws.until(lambda ws=ws: _texts(ws) == ["before", "during"], CATCH_UP_BOUND_S)
    # And the bus carries lines again, both ways.
    await bob.send({"type": "chat", "text": "after"})
    await ann.until(lambda: _texts(ann) == ["before", "during", "after"])
    for ws in (ann, bob, watcher):
        await ws.close()


@pytest.mark.parametrize("outage_s", [0.0, 7.0])
async def test_a_line_said_while_redis_is_stopped_reaches_the_other_instance(
    tmp_path: Path,
    make_migrated_postgres_db: Callable[[], str],
    servers: list[Server],
    redis: PrivateRedis,
    outage_s: float,
) -> None:
    a, b = await _two_instances(
        tmp_path, make_migrated_postgres_db(), servers, redis.url, redis.url
    )
    ann, bob, watcher = await _table(a, b)
    redis.stop()
    await ann.send({"type": "chat", "text": "during"})
    await ann.until(lambda: _texts(ann) == ["before", "during"])  # its own instance at once
    if outage_s:
        await _until_logged(a, "reached this instance only for now")
        await asyncio.sleep(outage_s)  # the outage lasts (the scenario, not a wait for the code)
        assert _texts(bob) == ["before"]
    redis.start()
    await _caught_up(ann, bob, watcher)


async def test_a_line_said_while_only_its_instance_lost_redis_reaches_the_other(
    tmp_path: Path,
    make_migrated_postgres_db: Callable[[], str],
    servers: list[Server],
    redis: PrivateRedis,
) -> None:
    """The other instance's subscription never breaks, so its bus never says it reconnected:
    the instance whose messages were lost tells the channels they were meant for."""
    proxy = TcpProxy("127.0.0.1", redis.port)
    try:
        through = redis.url.replace(f":{redis.port}/", f":{proxy.port}/")
        a, b = await _two_instances(
            tmp_path, make_migrated_postgres_db(), servers, through, redis.url
        )
        ann, bob, watcher = await _table(a, b)
        proxy.cut()
        await ann.send({"type": "chat", "text": "during"})
        await ann.until(lambda: _texts(ann) == ["before", "during"])
        await _until_logged(a, "reached this instance only for now")
        assert _texts(bob) == ["before"]
        proxy.restore()
        await _caught_up(ann, bob, watcher)
    finally:
        proxy.close()
