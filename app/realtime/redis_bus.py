"""The bus on one Redis: pub/sub with one connection for publishing and one pub/sub connection
shared by every channel; after an outage it reconnects, resubscribes and tells every channel
that messages may have been lost (`RECONNECTED`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.metrics import BUS_MESSAGES
from app.realtime.bus import RECONNECTED, Bus
from app.shared.tasks import cancel_until_done

log = logging.getLogger(__name__)

_PUBLISHED = BUS_MESSAGES.labels(direction="published")
_RECEIVED = BUS_MESSAGES.labels(direction="received")


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
        """Stop the reader and close the connections (the pub/sub ones: `_close_pubsub`)."""
        if self._reader is not None:
            await cancel_until_done(self._reader)
        await self._close_pubsub()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

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
