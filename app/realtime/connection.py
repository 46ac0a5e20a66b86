"""One socket: its viewer, its bounded outgoing queue and sender task, and its rate limits.

Frames are never sent directly from fan-out code: they are queued, and a per-socket writer task
(alive only while frames wait) writes them. So a slow reader only fills its own queue; when that
overflows, the socket is dropped (close 1013) and the client resyncs on reconnect, while every
other socket goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from app.realtime.documents import SPECTATOR, ViewerKey
from app.realtime.protocol import CLOSE_TRY_AGAIN
from app.services.live import Viewer
from app.settings import Settings

log = logging.getLogger(__name__)


def _default(name: str) -> Any:
    return Settings.model_fields[name].default


@dataclass(frozen=True)
class SocketLimits:
    """Per-socket limits: the `SEADRAGONS_WS_*` settings (their defaults are the settings')."""

    queue_frames: int = _default("ws_queue_frames")  # frames for a slow reader, then 1013
    messages_per_s: float = _default("ws_messages_per_second")
    message_burst: float = _default("ws_message_burst")
    chats_per_s: float = _default("ws_chats_per_second")
    chat_burst: float = _default("ws_chat_burst")
    # Each refused frame costs a strike; a flood that outlasts them is closed (1008).
    strikes_per_s: float = 10.0
    strike_burst: float = 500.0

    @classmethod
    def from_settings(cls, settings: Settings) -> SocketLimits:
        """The limits a server runs with."""
        return cls(
            queue_frames=settings.ws_queue_frames,
            messages_per_s=settings.ws_messages_per_second,
            message_burst=settings.ws_message_burst,
            chats_per_s=settings.ws_chats_per_second,
            chat_burst=settings.ws_chat_burst,
        )


DEFAULT_LIMITS = SocketLimits()


class Socket(Protocol):
    """What a Connection needs from a WebSocket (Starlette's, or a fake in unit tests)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class TokenBucket:
    """`rate` tokens per second up to `burst`; each message takes one."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.stamp = clock()

    def take(self) -> bool:
        """Spend a token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """A socket in a room: who it is, what document it holds, and its outgoing frames.

    Frames wait in a plain deque; a writer task exists only while there is something to write.
    An idle socket (most spectators, most of the time) then costs no task and no queue: about
    a third of the memory an asyncio.Queue and a sender task per socket took.
    """

    __slots__ = (
        "_close_code",
        "_out",
        "_queue_frames",
        "_writer",
        "chat_seen",
        "chats",
        "closed",
        "closing",
        "key",
        "limit_reported_at",
        "messages",
        "on_drop",
        "presence_sent",
        "session_checked_at",
        "socket",
        "status",
        "strikes",
        "turn_sent",
        "version",
        "viewer",
    )

    def __init__(self, socket: Socket, viewer: Viewer, limits: SocketLimits | None = None) -> None:
        limits = limits or DEFAULT_LIMITS
        self.socket = socket
        self.viewer = viewer
        # The document this socket holds: its key and version (None: nothing sent yet).
        self.key: ViewerKey = SPECTATOR
        self.version: int | None = None
        self.status: str | None = None
        self.turn_sent: int | None = None  # last version we sent `your_turn` for
        self.presence_sent: str | None = None  # the last presence frame queued here
        self.chat_seen = 0  # highest chat id in the history sent on join (skip repeats)
        self.messages = TokenBucket(limits.messages_per_s, limits.message_burst)
        self.chats = TokenBucket(limits.chats_per_s, limits.chat_burst)
        self.strikes = TokenBucket(limits.strikes_per_s, limits.strike_burst)
        # The session was valid when the socket opened; re-read after SESSION_RECHECK_S.
        self.session_checked_at = time.monotonic()
        self.limit_reported_at = 0.0
        self.closed = False
        self.closing = False  # a final frame is queued and the close follows it
        self.on_drop: Callable[[Connection], Any] | None = None
        self._out: deque[str | None] = deque()  # None: close after what comes before
        self._queue_frames = limits.queue_frames
        self._writer: asyncio.Task[None] | None = None
        self._close_code = 1000

    def send(self, frame: str) -> bool:
        """Queue a frame; a full queue drops this socket (it resyncs when it reconnects)."""
        if self.closed or self.closing:
            return False
        if len(self._out) >= self._queue_frames:
            log.info("dropping a slow socket (%d frames queued)", len(self._out))
            self.drop(CLOSE_TRY_AGAIN)
            return False
        self._out.append(frame)
        self._wake()
        return True

    def _wake(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    def drop(self, code: int) -> None:
        """Stop sending now and close the socket with `code` in the background."""
        if self.closed:
            return
        self.closed = True
        self._close_code = code
        self._out.clear()
        if self._writer is not None:
            self._writer.cancel()
        task = asyncio.get_running_loop().create_task(self._close_quietly(code))
        _background.add(task)
        task.add_done_callback(_background.discard)
        if self.on_drop is not None:
            self.on_drop(self)

    def close_after_queue(self, code: int) -> None:
        """Close once the queued frames (e.g. a final error) are written; send no more."""
        if self.closed or self.closing:
            return
        self.closing = True
        self._close_code = code
        self._out.append(None)
        self._wake()

    async def _close_quietly(self, code: int) -> None:
        with contextlib.suppress(Exception):
            # A peer that stopped reading may never take the close frame: do not wait forever.
            await asyncio.wait_for(self.socket.close(code), timeout=2)

    async def _write(self) -> None:
        try:
            while self._out:
                frame = self._out.popleft()
                if frame is None:
                    self.closed = True
                    await self._close_quietly(self._close_code)
                    if self.on_drop is not None:
                        self.on_drop(self)
                    return
                await self.socket.send_text(frame)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The peer went away mid-send; the reader loop notices and cleans up.
            self.closed = True
        finally:
            self._writer = None

    async def shutdown(self) -> None:
        """Stop writing (the socket is finished)."""
        self.closed = True
        self._out.clear()
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer

    def queued(self) -> int:
        """Frames waiting to be written (for tests and metrics)."""
        return len(self._out)


# Close tasks that nothing awaits: keep references so they are not garbage-collected mid-run.
_background: set[asyncio.Task[None]] = set()
