"""The bus on a Redis Cluster: sharded pub/sub (SPUBLISH/SSUBSCRIBE, Redis 7), so a game's
messages cost only the node that owns its channel's hash slot."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from app.infra.redis_urls import cluster_nodes
from app.realtime.redis_bus import RedisBus
from app.shared.tasks import cancel_until_done


class ClusterBus(RedisBus):
    """Sharded pub/sub on a Redis Cluster: a channel lives on the node that owns its hash slot,
    so a game's messages go to that node and its subscribers only (plain PUBLISH in a cluster
    is forwarded to every node). One pub/sub connection per node holding channels here, each
    read by a task of its own. When any of them breaks (a node restarted, a slot moved: SSUBSCRIBE
    answers MOVED), the reader rebuilds them all from a fresh slot map and tells every channel
    that messages may have been lost, as RedisBus does after an outage."""

    def __init__(self, url: str, client_name: str = "seadragons-bus") -> None:
        super().__init__(url, client_name)
        self._node_subs: dict[str, Any] = {}  # node name -> its pub/sub (plain, one node)
        self._node_of: dict[str, str] = {}  # channel -> node name it is subscribed on
        self._inbox: asyncio.Queue[tuple[str, str] | BaseException] = asyncio.Queue()
        self._node_readers: list[asyncio.Task[None]] = []
        self._opening = False
        self._sub_lock = asyncio.Lock()
        self._leaving: dict[str, int] = {}  # channel -> our SUNSUBSCRIBEs not yet confirmed

    async def connect(self) -> None:
        """Connect to the cluster (any listed node that answers gives the slot map)."""
        from redis.asyncio.cluster import ClusterNode, RedisCluster
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        nodes, username, password = cluster_nodes(self.url)
        self._redis = RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in nodes],
            username=username,
            password=password,
            decode_responses=True,
            client_name=self.client_name,
            socket_timeout=5.0,
            socket_connect_timeout=2.0,
            # A publish to a node that is down fails at once (the hub logs it and the rooms'
            # check catches up) rather than holding the mover's fan-out for seconds of retries.
            retry=Retry(NoBackoff(), 1),
        )
        await self._redis.initialize()
        await self._open_pubsub()
        self._reader = asyncio.create_task(self._read(), name="redis-cluster-bus-reader")

    async def _open_pubsub(self) -> None:
        await self._close_nodes()
        await self._redis.nodes_manager.initialize()  # the slot map as it is now
        self._opening = True
        try:
            for channel in (self._control, *self._subs):
                await self._listen(channel)
        finally:
            self._opening = False
        self._pubsub = self._node_subs  # set: subscriptions are made as channels come

    async def _close_pubsub(self) -> None:
        await self._close_nodes()

    def _node_pubsub(self, channel: str) -> tuple[str, Any]:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        node = self._redis.get_node_from_key(channel)
        pubsub = self._node_subs.get(node.name)
        if pubsub is None:
            client = redis.Redis(
                host=node.host,
                port=node.port,
                username=self._redis.nodes_manager.connection_kwargs.get("username"),
                password=self._redis.nodes_manager.connection_kwargs.get("password"),
                decode_responses=True,
                client_name=self.client_name,
                socket_connect_timeout=2.0,
                # No quiet reconnection: a broken connection must reach _read_node, so that
                # every channel hears RECONNECTED (messages were lost in between).
                retry=Retry(NoBackoff(), 0),
            )
            # Confirmations too: a SUNSUBSCRIBE nobody asked for means the slot moved away.
            pubsub = client.pubsub(ignore_subscribe_messages=False)
            self._node_subs[node.name] = pubsub
        return node.name, pubsub

    async def _listen(self, channel: str) -> None:
        if self._pubsub is None and not self._opening:
            return  # not connected (yet, or again): _open_pubsub subscribes every channel
        # One at a time: a node's first SSUBSCRIBE connects, and its reader starts after that.
        async with self._sub_lock:
            name, pubsub = self._node_pubsub(channel)
            fresh = pubsub.connection is None
            await pubsub.ssubscribe(channel)
            self._node_of[channel] = name
            if fresh:
                task = asyncio.create_task(self._read_node(pubsub), name=f"cluster-bus-{name}")
                self._node_readers.append(task)

    async def _unlisten(self, channel: str) -> None:
        async with self._sub_lock:
            name = self._node_of.pop(channel, None)
            pubsub = self._node_subs.get(name) if name is not None else None
            if pubsub is not None:
                self._leaving[channel] = self._leaving.get(channel, 0) + 1
                await pubsub.sunsubscribe(channel)

    async def _read_node(self, pubsub: Any) -> None:
        """Hand one node's messages to the reader; a failure goes there too, and ends this.
        A channel unsubscribed by the node itself (its slot moved to another node, Redis 7
        does that on resharding) counts as a failure: the subscriptions start afresh."""
        try:
            while True:
                msg = await pubsub.get_message(timeout=5.0)
                kind = msg.get("type") if msg is not None else None
                if kind == "smessage":
                    self._inbox.put_nowait((msg["channel"], msg["data"]))
                elif kind == "sunsubscribe":
                    channel = msg["channel"]
                    if self._leaving.get(channel, 0) > 0:  # ours: _unlisten asked for it
                        self._leaving[channel] -= 1
                        if not self._leaving[channel]:
                            del self._leaving[channel]
                    elif channel in self._node_of:
                        raise ConnectionError(f"{channel}: its slot moved to another node")
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            self._inbox.put_nowait(exc)

    async def _next(self) -> tuple[str, str] | None:
        try:
            got = await asyncio.wait_for(self._inbox.get(), 5.0)
        except TimeoutError:
            return None
        if isinstance(got, BaseException):
            raise got  # into RedisBus._read's recovery: _open_pubsub again, then RECONNECTED
        return got

    async def _close_nodes(self) -> None:
        readers, self._node_readers = self._node_readers, []
        for task in readers:
            task.cancel()
        for task in readers:
            await cancel_until_done(task)
        subs, self._node_subs = self._node_subs, {}
        self._node_of.clear()
        self._leaving.clear()
        for pubsub in subs.values():
            with contextlib.suppress(Exception):
                await pubsub.aclose()
        self._inbox = asyncio.Queue()  # failures of the connections just closed are moot
        self._pubsub = None

    async def _send(self, channel: str, message: str) -> None:
        await self._redis.spublish(channel, message)
