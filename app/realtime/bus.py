"""The broadcast bus between server instances: `memory://` (one process), `redis://` pub/sub, or
`redis+cluster://` sharded pub/sub over a Redis Cluster (SPUBLISH/SSUBSCRIBE, Redis 7).

Modelled on the `broadcaster` library: `publish(channel, message)` and `subscribe(channel)` as
an async context manager yielding an async iterator of messages; the backend is chosen by the
URL's scheme. Messages are hints ("game 7 is at version 12"): the database stays the truth, so
a lost message only delays a refresh until the next one (or the rooms' periodic check).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from app.infra.redis_urls import cluster_nodes, is_cluster_url
from app.metrics import BUS_MESSAGES

log = logging.getLogger(__name__)

_PUBLISHED = BUS_MESSAGES.labels(direction="published")
_RECEIVED = BUS_MESSAGES.labels(direction="received")

# Delivered to every subscriber after the backend reconnected: messages may have been lost.
RECONNECTED = '{"kind":"reconnected"}'
_QUEUE_MAX = 1024


class Subscription:
    """Messages of one channel, in order; iterate with `async for`."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self._queue: asyncio.Queue[str] = asyncio.Queue(_QUEUE_MAX)

    def _deliver(self, message: str) -> None:
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            # A stuck consumer: drop the oldest hint rather than grow without bound.
            self._queue.get_nowait()
            self._queue.put_nowait(message)

    def __aiter__(self) -> AsyncIterator[str]:
        return self

    async def __anext__(self) -> str:
        return await self._queue.get()


class Bus(ABC):
    """Publish/subscribe of text messages on named channels."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    async def connect(self) -> None:  # noqa: B027 - optional hook
        """Open connections (called once at startup)."""

    async def disconnect(self) -> None:  # noqa: B027 - optional hook
        """Close connections (called once at shutdown)."""

    @abstractmethod
    async def publish(self, channel: str, message: str) -> None:
        """Send `message` to every subscriber of `channel` on every instance."""

    async def _listen(self, channel: str) -> None:  # noqa: B027 - optional hook
        """Start receiving `channel` from the backend (first local subscriber)."""

    async def _unlisten(self, channel: str) -> None:  # noqa: B027 - optional hook
        """Stop receiving `channel` (last local subscriber left)."""

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        """Receive the messages published on `channel` while the block runs."""
        sub = Subscription(channel)
        subs = self._subs.setdefault(channel, set())
        first = not subs
        subs.add(sub)
        try:
            if first:
                await self._listen(channel)
            yield sub
        finally:
            subs.discard(sub)
            if not subs:
                del self._subs[channel]
                with contextlib.suppress(Exception):
                    await self._unlisten(channel)

    def _dispatch(self, channel: str, message: str) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub._deliver(message)


class MemoryBus(Bus):
    """One process: publishing delivers straight to local subscribers."""

    async def publish(self, channel: str, message: str) -> None:
        """Deliver to the subscribers in this process."""
        self._dispatch(channel, message)


class RedisBus(Bus):
    """Redis pub/sub: one connection for publishing, one pub/sub connection shared by channels."""

    def __init__(self, url: str, client_name: str = "seadragons-bus") -> None:
        super().__init__()
        self.url = url
        self.client_name = client_name  # shows in CLIENT LIST: whose connections these are
        self._redis: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        # Always subscribed, so the pub/sub connection exists before any game channel does.
        self._control = "seadragons:control"
        # Channels whose messages were lost because publishing failed here: once it works again,
        # RECONNECTED goes to each, for the instances whose own subscription never broke (and so
        # never heard from their bus that something may be missing). One name per channel: at
        # most the games active here during the outage.
        self._unsent: set[str] = set()

    async def connect(self) -> None:
        """Connect and start the reader task."""
        import redis.asyncio as redis

        self._redis = redis.from_url(self.url, decode_responses=True, client_name=self.client_name)
        await self._open_pubsub()
        self._reader = asyncio.create_task(self._read(), name="redis-bus-reader")

    async def _open_pubsub(self) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self._control, *self._subs)
        self._pubsub = pubsub

    async def disconnect(self) -> None:
        """Stop the reader and close both connections."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        for conn in (self._pubsub, self._redis):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.aclose()

    async def publish(self, channel: str, message: str) -> None:
        """PUBLISH on Redis; every instance subscribed to `channel` receives it."""
        try:
            await self._send(channel, message)
        except Exception:
            self._unsent.add(channel)
            raise
        _PUBLISHED.inc()
        if self._unsent:
            await self._tell_unsent()

    async def _tell_unsent(self) -> None:
        """Publishing works again: tell every channel whose messages were lost here that some
        may be missing (rooms then catch up from the database: moves and chat lines)."""
        channels, self._unsent = sorted(self._unsent), set()
        for i, channel in enumerate(channels):
            try:
                await self._send(channel, RECONNECTED)
            except Exception:
                self._unsent.update(channels[i:])  # away again: the next success tells them
                return

    async def _send(self, channel: str, message: str) -> None:
        await self._redis.publish(channel, message)

    async def _listen(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.subscribe(channel)

    async def _unlisten(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.unsubscribe(channel)

    async def _next(self) -> tuple[str, str] | None:
        """The next message from the backend as (channel, text), or None after a quiet spell."""
        msg = await self._pubsub.get_message(timeout=5.0)
        if msg is not None and msg.get("type") == "message":
            return msg["channel"], msg["data"]
        return None

    async def _read(self) -> None:
        delay = 0.2
        while True:
            try:
                got = await self._next()
                delay = 0.2
                if got is not None:
                    _RECEIVED.inc()
                    self._dispatch(*got)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # Redis restarted or the network blinked: reconnect, resubscribe, and tell every
                # subscriber that messages may have been lost (rooms then reload from the DB).
                await self._recover(exc, delay)
                delay = 0.2

    async def _recover(self, exc: BaseException, delay: float) -> None:
        """Open the subscriptions again (backing off while that fails), then RECONNECTED."""
        log.warning("redis bus: %s; reconnecting in %.1fs", exc, delay)
        while True:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
            await self._close_pubsub()
            try:
                await self._open_pubsub()
                break
            except Exception as again:
                log.warning("redis bus: reconnect failed: %s", again)
        for channel in list(self._subs):
            self._dispatch(channel, RECONNECTED)
        if self._unsent:
            with contextlib.suppress(Exception):
                await self._tell_unsent()

    async def _close_pubsub(self) -> None:
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()


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
            with contextlib.suppress(BaseException):
                await task
        subs, self._node_subs = self._node_subs, {}
        self._node_of.clear()
        self._leaving.clear()
        for pubsub in subs.values():
            with contextlib.suppress(Exception):
                await pubsub.aclose()
        self._inbox = asyncio.Queue()  # failures of the connections just closed are moot
        self._pubsub = None

    async def disconnect(self) -> None:
        """Stop the readers and close every connection."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        await self._close_nodes()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    async def _send(self, channel: str, message: str) -> None:
        await self._redis.spublish(channel, message)


def create_bus(redis_url: str | None) -> Bus:
    """The bus on the shared Redis (`Settings.shared_redis_url`): sharded on a Redis Cluster,
    plain pub/sub on one Redis; in-process without one."""
    if not redis_url:
        return MemoryBus()
    return ClusterBus(redis_url) if is_cluster_url(redis_url) else RedisBus(redis_url)


def channel_prefix(url: str | None) -> str:
    """Channel names per Redis database number, so test and dev servers sharing a Redis (pub/sub
    ignores database numbers) do not hear each other."""
    if not url:
        return "seadragons:"
    if is_cluster_url(url):
        return "seadragons:db0:"  # a cluster has one database
    path = urlsplit(url).path.strip("/") or "0"
    return f"seadragons:db{path}:"
