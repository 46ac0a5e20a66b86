"""The broadcast bus between server instances: `memory://` (one process) or `redis://` pub/sub.

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

log = logging.getLogger(__name__)

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
            await self._redis.publish(channel, message)
        except Exception:
            self._unsent.add(channel)
            raise
        if self._unsent:
            await self._tell_unsent()

    async def _tell_unsent(self) -> None:
        """Publishing works again: tell every channel whose messages were lost here that some
        may be missing (rooms then catch up from the database: moves and chat lines)."""
        channels, self._unsent = sorted(self._unsent), set()
        for i, channel in enumerate(channels):
            try:
                await self._redis.publish(channel, RECONNECTED)
            except Exception:
                self._unsent.update(channels[i:])  # away again: the next success tells them
                return

    async def _listen(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.subscribe(channel)

    async def _unlisten(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        delay = 0.2
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=5.0)
                delay = 0.2
                if msg is not None and msg.get("type") == "message":
                    self._dispatch(msg["channel"], msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # Redis restarted or the network blinked: reconnect, resubscribe, and tell every
                # subscriber that messages may have been lost (rooms then reload from the DB).
                log.warning("redis bus: %s; reconnecting in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                try:
                    await self._open_pubsub()
                except Exception as again:
                    log.warning("redis bus: reconnect failed: %s", again)
                    continue
                for channel in list(self._subs):
                    self._dispatch(channel, RECONNECTED)
                if self._unsent:
                    with contextlib.suppress(Exception):
                        await self._tell_unsent()


def create_bus(redis_url: str | None) -> Bus:
    """The bus on the shared Redis (`Settings.shared_redis_url`), or in-process without one."""
    return RedisBus(redis_url) if redis_url else MemoryBus()


def channel_prefix(url: str | None) -> str:
    """Channel names per Redis database number, so test and dev servers sharing a Redis (pub/sub
    ignores database numbers) do not hear each other."""
    if not url:
        return "seadragons:"
    path = urlsplit(url).path.strip("/") or "0"
    return f"seadragons:db{path}:"
