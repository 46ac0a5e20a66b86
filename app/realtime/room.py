"""A game's sockets on this instance: committed changes in, per-viewer frames out.

The room holds the game as last seen (`snap`), and each viewer kind's current document with a
short history of patches for resyncs (`documents`: room_documents.py). It decides nothing about
the game: changes come to it already committed. All changes to what a socket holds happen under
`lock`, so a socket never misses or reorders a patch: it joins, resyncs and receives fan-out in
one sequence.

How a change reaches the room, fastest first:
- a move committed in this process is handed over in memory (`advance`): no database read;
- another instance's move arrives as a `changed` bus message with the move, and is replayed on
  the room's state (move_replay.py: the engine is deterministic); a room not exactly one
  version behind, or a change that is not a move (the lobby, seats), reloads once instead;
- a message that never came (bus down, lost message, a failed reload) is caught by the hub's
  periodic check of every room's version, status and seats (`needs_refresh`), and a failed
  reload retries with backoff until the database answers. docs/protocol.md states the bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.metrics import ROOM_UPDATES
from app.realtime import documents as docs
from app.realtime import move_replay, viewer_frames
from app.realtime.bus import Bus
from app.realtime.codec import (
    BusMessage,
    Changed,
    ChatLine,
    Codec,
    Presence,
    Received,
    Reconnected,
)
from app.realtime.connection import Connection
from app.realtime.presence import RoomPresence
from app.realtime.protocol import (
    CLOSE_INTERNAL,
    dumps,
    status_frame,
)
from app.realtime.room_chat import RoomChat
from app.realtime.room_documents import RoomDocuments
from app.realtime.storage import GameSnap, LiveStore, Mark
from app.shared.moves import Committed
from app.shared.snapshots import marks_of

log = logging.getLogger(__name__)

RETRY_FIRST_S = 0.2  # a failed reload is retried after this, doubling up to RETRY_MAX_S
RETRY_MAX_S = 2.0
RECHECK_MIN_S = 0.5  # at most one "is my snapshot current?" read per room this often


class RoomHost(Protocol):
    """What a room needs from its surroundings (the hub)."""

    store: LiveStore
    bus: Bus
    codec: Codec

    def channel(self, game_id: int) -> str:
        """The game's bus channel."""
        ...

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking storage call in a worker thread."""
        ...

    async def publish(self, channel: str, message: BusMessage) -> bool:
        """Publish; False (and logged) if the bus refused."""
        ...

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run in the background."""
        ...

    def room_empty(self, room: Room) -> None:
        """The last socket left (the room may close after a grace period)."""
        ...


class Room:
    """The sockets watching one game on this instance."""

    def __init__(self, host: RoomHost, game_id: int) -> None:
        self.host = host
        self.game_id = game_id
        self.channel = host.channel(game_id)
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.snap: GameSnap | None = None
        self.documents = RoomDocuments(game_id)  # per viewer kind: the document, its patches
        self.closed = False
        self.stale = False  # the last reload failed: retried until one succeeds
        self.ready = asyncio.Event()
        self.presence = RoomPresence(
            game_id, host.codec.instance, self.conns, lambda: self.snap, self._publish_soon
        )
        self.chat = RoomChat(game_id, lambda seats: host.run(host.store.chat_since, game_id, seats))
        self._retrying = False
        self._rechecked_at = 0.0
        self._task = asyncio.create_task(self._run(), name=f"room-{game_id}")

    # --- lifecycle -------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            async with self.host.bus.subscribe(self.channel) as sub:
                # Subscribed before the first load: no change can fall between the two.
                await self.refresh_safely()
                self.ready.set()
                # Ask the other instances for their counts of this game's sockets.
                await self.host.publish(self.channel, self.presence.own(hello=True))
                async for text in sub:
                    received = self.host.codec.decode(text)  # None: our own, or unreadable
                    if received is not None:
                        await self.on_bus(received)
                    if self.closed:
                        return
        except asyncio.CancelledError:
            raise
        except Exception:
            # Without its bus subscription the room could only rely on the periodic check: close
            # it, and let the clients reconnect (1011) into a fresh one.
            log.exception("room %s stopped", self.game_id)
            self.closed = True
            for conn in list(self.conns):
                conn.drop(CLOSE_INTERNAL)
        finally:
            self.ready.set()

    async def close(self) -> None:
        """Stop listening (the last socket left); tell other instances we hold no one."""
        self.closed = True
        self.presence.close()
        self._task.cancel()
        # A cancellation can be lost inside a library that turns it into a timeout (a Redis
        # client reconnecting under asyncio.timeout, then caught as an error): ask again until
        # the task has ended, rather than wait for it forever.
        while not self._task.done():
            await asyncio.wait({self._task}, timeout=0.5)
            self._task.cancel()
        with contextlib.suppress(BaseException):
            self._task.result()
        await self.host.publish(self.channel, self.presence.own(empty=True))

    def _publish_soon(self, message: BusMessage) -> None:
        self.host.spawn(self.host.publish(self.channel, message))

    # --- sockets ---------------------------------------------------------------------------

    async def join(self, conn: Connection) -> bool:
        """Add a socket and send it the current state; False if the room closed meanwhile."""
        await self.ready.wait()
        async with self.lock:
            if self.closed:
                return False
            if self.snap is None:
                await self._refresh_locked()
            if self.snap is None:
                return False
            self.conns.add(conn)
            self._send_full(conn)
            seats = self._seat_by_user()
        history = await self.chat.history_for(seats)
        conn.send(dumps({"type": "chat_history", "game_id": self.game_id, "messages": history}))
        conn.chat_seen = max((m["id"] for m in history), default=0)
        self.presence.greet(conn)
        return True

    def leave(self, conn: Connection) -> None:
        """Forget a socket; an empty room closes after a grace period (reloads are cheap)."""
        if conn in self.conns:
            self.conns.discard(conn)
            self.presence.changed()
            if not self.conns:
                self.host.room_empty(self)

    def _seat_by_user(self) -> dict[int, int]:
        snap = self.snap
        if snap is None:
            return {}
        return {s.user_id: s.seat for s in snap.seats if s.user_id is not None}

    async def resync(self, conn: Connection, version: int) -> None:
        """Send `conn` what it missed since `version`: patches from history, else a state.

        The database is asked first: the client may have heard of a change that never reached
        this room (it resyncs on a gap or a `stale_version`), and must converge at once.
        """
        await self.ensure_current(force=True)
        async with self.lock:
            snap = self.snap
            if snap is None or snap.state is None:
                if snap is not None:
                    conn.send(status_frame(self.game_id, snap.status, snap.version))
                return
            key = docs.key_for(snap, conn.viewer.user_id)
            if key == conn.key and version == snap.version == conn.version:
                return  # already current: nothing to send
            chain = self.documents.chain(key, version, snap.version)
            if key != conn.key or chain is None:
                self._send_full(conn)
                return
            for frame in chain:
                conn.send(frame)
            conn.version = snap.version

    async def ensure_current(self, force: bool = False) -> None:
        """Compare with the database (one light read) and reload if the room lags behind.

        Without `force`, at most one such read per RECHECK_MIN_S (callers on hot paths).
        """
        now = time.monotonic()
        if not force and now - self._rechecked_at < RECHECK_MIN_S:
            return
        self._rechecked_at = now
        try:
            marks = await self.host.run(self.host.store.current_marks, [self.game_id])
        except Exception as exc:  # database away: answer from memory; the check retries
            log.warning("room %s: version check failed: %s", self.game_id, exc)
            self.stale = True
            return
        if self.needs_refresh(marks.get(self.game_id)):
            await self.refresh_safely()

    def needs_refresh(self, mark: Mark | None) -> bool:
        """Whether the database's `mark` shows a change this room has not loaded."""
        if self.closed:
            return False
        if self.stale or self.snap is None:
            return True
        return mark is not None and mark != marks_of(self.snap)

    # --- changes ---------------------------------------------------------------------------

    async def advance(
        self, move: Committed, source: str = "local", ack: tuple[Connection, str] | None = None
    ) -> None:
        """A committed move (made here, or replayed from another instance's message): fan it
        out from memory, or reload if the room lags behind it. `ack`: the mover's socket and
        its ack, sent right after the mover's own patch."""
        async with self.lock:
            snap = self.snap
            if self.closed or snap is None or move.version <= snap.version:
                pass
            elif snap.state is not None and move.version == snap.version + 1:
                await self._fan_out(snap, snap.after(move), source, ack)
                return
            else:
                await self._refresh_locked()
        if ack is not None:
            ack[0].send(ack[1])

    async def refresh(self) -> None:
        """Reload the game once and push each socket the changes in its own view."""
        async with self.lock:
            await self._refresh_locked()

    async def refresh_safely(self) -> None:
        """`refresh`, or, if the database is away, keep the sockets and retry until it answers."""
        try:
            await self.refresh()
        except Exception as exc:
            log.warning("room %s: refresh failed: %s", self.game_id, exc)
            self.stale = True
            if not self._retrying:
                self._retrying = True
                self.host.spawn(self._retry())
        else:
            self.stale = False

    async def _retry(self) -> None:
        delay = RETRY_FIRST_S
        try:
            while self.stale and not self.closed:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX_S)
                with contextlib.suppress(Exception):
                    await self.refresh()
                    self.stale = False
        finally:
            self._retrying = False

    async def _refresh_locked(self) -> None:
        old = self.snap
        since = old.version if old is not None and old.state is not None else None
        new = await self.host.run(self.host.store.load_game, self.game_id, since)
        if new.same_as(old):
            return
        seats_changed = old is None or old.seats != new.seats
        if new.state is None:
            self.snap = new
            for conn in self.conns:
                conn.key = docs.key_for(new, conn.viewer.user_id)
                conn.send(viewer_frames.status_of(new, conn))
        else:
            await self._fan_out(old, new, "reload")
        if seats_changed:
            self.presence.changed()

    async def _fan_out(
        self,
        old: GameSnap | None,
        new: GameSnap,
        source: str,
        first: tuple[Connection, str] | None = None,
    ) -> None:
        """Send every socket its frames of the change from `old` to `new` (room_documents.py).

        Runs on the event loop under the room's lock, so every socket gets this change's frames
        in order. `first`: the socket that made the move and its ack, sent right behind its own
        patch."""
        ROOM_UPDATES.labels(source=source).inc()
        self.snap = new
        self.documents.fan_out(self.conns, old, new, first)

    def _send_full(self, conn: Connection) -> None:
        snap = self.snap
        assert snap is not None
        self.documents.send_full(snap, conn)

    # --- chat (room_chat.py) -----------------------------------------------------------------

    def deliver_chat(self, message: dict[str, Any]) -> None:
        """A stored chat line to this room's sockets (once each: a catch-up repeats none)."""
        self.chat.deliver(message, self.conns)

    async def catch_up_chat(self) -> None:
        """Deliver the lines said while the bus may have been away (they are stored)."""
        for line in await self.chat.missed(self._seat_by_user()):
            self.deliver_chat(line)  # as a delayed table's room forwards it too

    # --- other instances -------------------------------------------------------------------

    async def on_bus(self, received: Received) -> None:
        """Another instance's message on this game's channel (ours were dropped undecoded)."""
        message = received.message
        if isinstance(message, Changed):
            if await self._replay(message):
                return
            if self.snap is None or message.version >= self.snap.version:
                await self.refresh_safely()
        elif isinstance(message, ChatLine):
            self.deliver_chat(message.message)
        elif isinstance(message, Presence) and received.origin is not None:
            self.presence.heard(received.origin, message)
            if message.hello:
                # A new instance asks who is here: answer so its counts include ours.
                await self.host.publish(self.channel, self.presence.own())
        elif isinstance(message, Reconnected):
            await self.refresh_safely()
            await self.catch_up_chat()
            await self.host.publish(self.channel, self.presence.own(hello=True))

    async def _replay(self, message: Changed) -> bool:
        """Another instance's move, replayed on the state this room holds (move_replay.py);
        False if it cannot be."""
        committed = move_replay.replayed(self.game_id, message, self.snap)
        if committed is None:
            return False
        self.host.store.cache_state(self.game_id, committed.version, committed.state)
        await self.advance(committed, "replay")
        return True

    # --- presence --------------------------------------------------------------------------

    def heartbeat(self) -> None:
        """Re-announce our counts (other instances expire silent ones) and expire theirs."""
        self.presence.changed()

    def seated_users(self) -> list[int]:
        """Users with a socket here who own a seat (their presence is refreshed in one write)."""
        if self.snap is None:
            return []
        return sorted(
            {c.viewer.user_id for c in self.conns if c.key.seat is not None and c.viewer.user_id}
        )
