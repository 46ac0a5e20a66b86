"""The bus on a Redis Cluster: sharded pub/sub (SPUBLISH/SSUBSCRIBE) between two real servers on
a private three-node cluster, one node killed and restarted during play; and the cluster URL.

The rooms' periodic check against the database is switched off (an hour) in the servers here, so
every socket that follows a move learnt it from the bus: live, or by the RECONNECTED notice after
the node came back (rooms then reload from the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.infra.redis_urls import cluster_nodes, is_cluster_url
from app.realtime.bus import RECONNECTED
from app.realtime.bus_url import channel_prefix, create_bus
from app.realtime.cluster_bus import ClusterBus
from app.realtime.redis_bus import RedisBus
from app.settings import Settings
from tests.ops.private_services import PrivateRedisCluster, private_redis_cluster, wait_until
from tests.realtime.helpers import Server, WsClient, cookie_of, new_game, rest_doc

pytestmark = pytest.mark.anyio


def test_cluster_url_is_parsed_and_chooses_the_sharded_bus() -> None:
    url = "redis+cluster://bus:s%40cret@10.0.0.1:7000,10.0.0.2:7001, [::1]:7002"
    nodes, user, password = cluster_nodes(url)
    assert nodes == [("10.0.0.1", 7000), ("10.0.0.2", 7001), ("::1", 7002)]
    assert (user, password) == ("bus", "s@cret")
    assert is_cluster_url(url) and not is_cluster_url("redis://h:6379/0")
    assert isinstance(create_bus(url), ClusterBus)
    assert type(create_bus("redis://h:6379/0")) is RedisBus
    assert channel_prefix(url) == "seadragons:db0:"
    assert Settings(redis_url=url).shared_redis_url == url  # bus, limits and /readyz share it
    with pytest.raises(ValueError, match="host:port"):
        cluster_nodes("redis+cluster://10.0.0.1")


@pytest.fixture
def cluster() -> Iterator[PrivateRedisCluster]:
    with private_redis_cluster() as running:
        yield running


async def _move(seats: list[WsClient], tag: str) -> int:
    mover = next(ws for ws in seats if ws.doc and ws.doc["legal_actions"])
    reply = await mover.act(mover.doc["legal_actions"][0], tag)
    assert reply["type"] == "ack", reply
    return reply["version"]


def _shard_channels(cluster: PrivateRedisCluster) -> tuple[set[str], set[str]]:
    """Per node: the shard channels and plain channels with subscribers, all nodes together."""
    sharded, plain = set(), set()
    for port in cluster.ports:
        sharded |= set(cluster.cli(port, "pubsub", "shardchannels").split())
        plain |= set(cluster.cli(port, "pubsub", "channels").split())
    return sharded, plain


@pytest.mark.server
@pytest.mark.timeout(240)
async def test_two_servers_on_a_cluster_converge_through_a_node_restart(
    cluster: PrivateRedisCluster, tmp_path: Path, make_postgres_db: Callable[[], str]
) -> None:
    url = make_postgres_db()
    no_check = {"SEADRAGONS_ROOM_CHECK_SECONDS": "3600"}
    a = Server(tmp_path / "a", url, cluster.url, env=no_check)
    b = Server(tmp_path / "b", url, cluster.url, env=no_check)
    for s in (a, b):
        s.log.parent.mkdir()
        s.start()
    everyone: list[WsClient] = []
    try:
        assert httpx.get(f"{a.http}/readyz", timeout=5).status_code == 200
        # Six games: their channels hash to slots on every node (a third of the slots each).
        tables = []
        for _ in range(6):
            gid, players, _ = await new_game(a)
            seat0 = await WsClient(f"{gid}:seat0@A").open(a.ws(gid), cookie_of(players[0]))
            seat1 = await WsClient(f"{gid}:seat1@B").open(b.ws(gid), cookie_of(players[1]))
            watch_b = await WsClient(f"{gid}:spec@B").open(b.ws(gid))
            tables.append(([seat0, seat1], [seat0, seat1, watch_b]))
            everyone += [seat0, seat1, watch_b]
        for ws in everyone:
            await ws.at_version(0)

        async def play_round(tag: str) -> None:
            for seats, sockets in tables:
                version = await _move(seats, tag)
                for ws in sockets:
                    await ws.at_version(version, timeout=30)

        await play_round("before")
        sharded, plain = _shard_channels(cluster)
        games = {c for c in sharded if ":game:" in c}
        assert len(games) == 6, sharded  # every game's channel is a shard channel...
        assert not any(":game:" in c for c in plain), plain  # ...and none a plain one
        owners = {
            port
            for port in cluster.ports
            if any(":game:" in c for c in cluster.cli(port, "pubsub", "shardchannels").split())
        }
        assert len(owners) >= 2, "the games' channels live on several nodes"

        # A node that holds game channels dies: moves go on (they commit to Postgres), and
        # their messages on that node's slots are lost until it is back.
        victim = sorted(owners)[0]
        cluster.stop_node(victim)
        versions = {}
        for n, (seats, _sockets) in enumerate(tables):
            versions[n] = await _move(seats, "during")
        cluster.start_node(victim)  # same nodes.conf: same id, same slots
        wait_until(cluster.healthy, 60, "the cluster to be ok again")
        for n, (_seats, sockets) in enumerate(tables):
            for ws in sockets:
                await ws.at_version(versions[n], timeout=60)
        # And the bus carries moves live again, on every node.
        await play_round("after")
        await play_round("after2")
        async with httpx.AsyncClient(base_url=b.http) as anyone:
            for _seats, sockets in tables:
                gid = int(sockets[0].name.split(":")[0])
                truth = (await anyone.get(f"/api/games/{gid}/state")).json()
                assert {ws.version for ws in sockets} == {truth["version"]}
                assert sockets[2].doc == rest_doc(truth)  # the spectator's document, in full
        assert httpx.get(f"{b.http}/readyz", timeout=5).status_code == 200
    finally:
        for ws in everyone:
            await ws.close()
        for s in (a, b):
            s.stop()


@pytest.mark.server
async def test_the_workers_turn_lease_works_on_the_cluster(cluster: PrivateRedisCluster) -> None:
    from app.worker import turn_lease_for

    lease = turn_lease_for(cluster.url, "lease-test:", 30.0)
    try:
        # Keys of several games land on several nodes; each is granted once.
        assert [await lease(game, 3) for game in range(6)] == [True] * 6
        assert [await lease(game, 3) for game in range(6)] == [False] * 6
        assert await lease(0, 4)
    finally:
        await lease.client.aclose()  # type: ignore[attr-defined]


@pytest.mark.server
@pytest.mark.timeout(240)
async def test_a_worker_on_the_cluster_plays_a_bot_game_seen_on_a_web_socket(
    cluster: PrivateRedisCluster, tmp_path: Path, make_migrated_postgres_db: Callable[[], str]
) -> None:
    """A web-only instance and a worker on the cluster bus: the worker's bot moves reach the web
    instance's socket (sharded pub/sub), and the worker serves its own metrics (the compose
    stack's healthcheck reads them)."""
    from tests.ops.private_services import free_port
    from tests.realtime.test_worker_role import QUICK, Worker, _bots_only_game, _finished

    url = make_migrated_postgres_db()
    web = Server(tmp_path, url, cluster.url, env={**QUICK, "SEADRAGONS_ROLE": "web"}).start()
    metrics_port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
    env.update(
        SEADRAGONS_DATA_DIR=str(tmp_path),
        SEADRAGONS_DATABASE_URL=url,
        SEADRAGONS_REDIS_URL=cluster.url,
        SEADRAGONS_SECRET_KEY="realtime-test-secret",
        SEADRAGONS_METRICS_PORT=str(metrics_port),
        **QUICK,
    )
    worker = Worker(tmp_path, "cluster", env).start()
    try:
        gid, host = await _bots_only_game(web)
        ws = await WsClient("host").open(web.ws(gid), cookie_of(host))
        state = await _finished(host, gid)
        await ws.at_version(state["version"], timeout=30)
        assert ws.doc is not None and ws.doc["view"] == state["view"]
        metrics = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).text
        decided = sum(
            float(line.rsplit(" ", 1)[1])
            for line in metrics.splitlines()
            if line.startswith("seadragons_bot_decision_seconds_count")
        )
        assert decided >= state["version"] - 1  # the bots' moves were decided in the worker
        await ws.close()
        await host.aclose()
    finally:
        worker.stop()
        web.stop()


@pytest.mark.server
async def test_a_channel_whose_slot_moves_follows_it_to_the_new_node(
    cluster: PrivateRedisCluster,
) -> None:
    """Resharding: the node giving a slot away unsubscribes its shard channels; the bus
    subscribes again on the new owner and says RECONNECTED (messages may have been lost)."""
    sender, listener = ClusterBus(cluster.url), ClusterBus(cluster.url)
    await sender.connect()
    await listener.connect()
    channels = [f"seadragons:db0:game:{n}" for n in range(6)]
    heard: dict[str, list[str]] = {c: [] for c in channels}
    subscribed = asyncio.Event()

    async def listen() -> None:
        async with contextlib.AsyncExitStack() as stack:
            subs = [await stack.enter_async_context(listener.subscribe(c)) for c in channels]
            subscribed.set()

            async def drain(sub: Any) -> None:
                async for text in sub:
                    heard[sub.channel].append(text)

            await asyncio.gather(*(drain(sub) for sub in subs))

    task = asyncio.create_task(listen())
    try:
        await subscribed.wait()

        async def all_heard(text: str) -> None:
            deadline = time.monotonic() + 20
            while not all(text in heard[c] for c in channels):
                assert time.monotonic() < deadline, heard
                await asyncio.sleep(0.05)

        for c in channels:
            await sender.publish(c, "before")
        await all_heard("before")
        slot = listener._redis.keyslot(channels[0])
        source = cluster.owner(slot)
        cluster.move_slot(slot, next(p for p in cluster.ports if p != source))
        # Until the listener has moved its subscription, a message may be lost (the RECONNECTED
        # notice covers that); once it has, every message arrives.
        await all_heard(RECONNECTED)
        for c in channels:
            await sender.publish(c, "after")
        await all_heard("after")
        assert cluster.owner(slot) != source
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await sender.disconnect()
        await listener.disconnect()
