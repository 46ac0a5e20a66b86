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
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from app.realtime.documents import SPECTATOR, ViewerKey
from app.realtime.protocol import CLOSE_TRY_AGAIN
from app.settings import Settings
from app.shared.snapshots import Viewer

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

    A frame is written at once when nothing waits before it: the write of an open socket whose
    peer keeps up finishes without suspending (the server's transport buffers it), so it is
    driven right here, with no task and no queue. Only when a write must wait (the peer reads
    slower than we send) does the socket get a queue (a deque, bounded) and a writer task,
    which exist while frames wait. An idle socket (most spectators, most of the time) then
    costs neither, and a fan-out to N sockets creates no task per socket.
    """

    __slots__ = (
        "_chats",
        "_close_code",
        "_limits",
        "_out",
        "_strikes",
        "_writer",
        "chat_seen",
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
        self._limits = limits
        self.messages = TokenBucket(limits.messages_per_s, limits.message_burst)
        self._chats: TokenBucket | None = None  # made on first use: most sockets never chat
        self._strikes: TokenBucket | None = None
        # The session was valid when the socket opened; re-read after SESSION_RECHECK_S.
        self.session_checked_at = time.monotonic()
        self.limit_reported_at = 0.0
        self.closed = False
        self.closing = False  # a final frame is queued and the close follows it
        self.on_drop: Callable[[Connection], Any] | None = None
        self._out: deque[str | None] | None = None  # frames waiting; None: close after them
        self._writer: asyncio.Task[None] | None = None
        self._close_code = 1000

    @property
    def chats(self) -> TokenBucket:
        """The chat rate limit."""
        if self._chats is None:
            self._chats = TokenBucket(self._limits.chats_per_s, self._limits.chat_burst)
        return self._chats

    @property
    def strikes(self) -> TokenBucket:
        """Refused frames: a flood that outlasts them is closed (1008)."""
        if self._strikes is None:
            self._strikes = TokenBucket(self._limits.strikes_per_s, self._limits.strike_burst)
        return self._strikes

    def send(self, frame: str) -> bool:
        """Write or queue a frame; a full queue drops the socket (it resyncs on reconnecting)."""
        if self.closed or self.closing:
            return False
        out = self._out
        if not out and self._writer is None:
            return self._write_now(frame)
        if out is None:
            out = self._out = deque()
        if len(out) >= self._limits.queue_frames:
            log.info("dropping a slow socket (%d frames queued)", len(out))
            self.drop(CLOSE_TRY_AGAIN)
            return False
        out.append(frame)
        self._wake()
        return True

    def _write_now(self, frame: str) -> bool:
        coro = self.socket.send_text(frame)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return True  # written without waiting: the common case
        except Exception:
            self.closed = True  # the peer went away mid-send; the reader loop cleans up
            return False
        # The write must wait (the peer's buffers are full): finish it, and whatever is queued
        # behind it meanwhile, in a writer task.
        self._writer = asyncio.get_running_loop().create_task(self._write((coro, waiting)))
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
        self._out = None
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
        if self._out is None:
            self._out = deque()
        self._out.append(None)
        self._wake()

    async def _close_quietly(self, code: int) -> None:
        with contextlib.suppress(Exception):
            # A peer that stopped reading may never take the close frame: do not wait forever.
            await asyncio.wait_for(self.socket.close(code), timeout=2)

    async def _write(self, started: tuple[Any, Any] | None = None) -> None:
        try:
            if started is not None:
                await _finish(*started)
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
        self._out = None
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer

    def queued(self) -> int:
        """Frames waiting to be written (for tests and metrics)."""
        return len(self._out) if self._out else 0


async def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Run a coroutine that was started by hand and suspended on `waiting` (what it yielded:
    a future, or None for a bare yield) to its end, as a task would have."""
    try:
        while True:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                await asyncio.wait((waiting,))  # its outcome is the coroutine's to see
            waiting = coro.send(None)
    except StopIteration:
        return
    finally:
        coro.close()  # cancelled meanwhile: the coroutine is closed at its suspension point


# Close tasks that nothing awaits: keep references so they are not garbage-collected mid-run.
_background: set[asyncio.Task[None]] = set()
