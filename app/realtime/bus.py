"""The broadcast bus between server instances: `memory://` (one process), `redis://` pub/sub, or
`redis+cluster://` sharded pub/sub over a Redis Cluster (SPUBLISH/SSUBSCRIBE, Redis 7).

Modelled on the `broadcaster` library: `publish(channel, message)` and `subscribe(channel)` as
an async context manager yielding an async iterator of messages. Here: the interface and the
in-process bus; redis_bus.py and cluster_bus.py the Redis ones; bus_url.py picks one by the
URL's scheme. Messages are hints ("game 7 is at version 12"): the database stays the truth, so
a lost message only delays a refresh until the next one (or the rooms' periodic check).
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator

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
