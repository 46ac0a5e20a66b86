"""The per-process hub: puts the live core's parts together and runs its timers.

    endpoint -> Hub.open/close (socket caps, session index, presence marks)
             -> GameAuthority (actions)   ChatRelay (chat)   Room.resync (resync)
    the one after-commit listener (every move, whatever road it came by; lobby changes)
             -> the room here (local first; the mover's ack behind its patch) -> the bus
    bus -> codec (our own messages dropped undecoded) -> the game's room, or the session index
    timers: the periodic check of every room against the database, presence heartbeats, and
    the session sweep (a sign-out takes effect within a bound without the bus)

The hub holds no game logic and no SQL: storage is a `LiveStore` (app/realtime/storage.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from app.infra.threads import in_thread
from app.metrics import OPEN_SOCKETS
from app.realtime import memory
from app.realtime.acks import PendingAcks
from app.realtime.authority import GameAuthority, changed_of
from app.realtime.bus import Bus
from app.realtime.chat_relay import ChatRelay
from app.realtime.codec import BusMessage, Changed, Codec, Revoked
from app.realtime.connection import Connection, SocketLimits
from app.realtime.delayed_rooms import DelayedRooms
from app.realtime.protocol import CLOSE_RESTARTING
from app.realtime.recent import RecentActions
from app.realtime.registry import RoomRegistry
from app.realtime.room import Room
from app.realtime.seen_marks import SeenMarks
from app.realtime.sessions import RECHECK_S, SessionIndex
from app.realtime.storage import LiveStore, MoveCommitter
from app.shared.moves import Committed
from app.shared.notify import Notifier

log = logging.getLogger(__name__)

TRIM_AFTER_CLOSES = 200  # sockets closed between two returns of free memory to the system
FREEZE_AFTER_OPENS = 100  # sockets opened between two freezes of the heap (memory.py)
FREEZE_FROM = 1000  # open sockets from which the heap is frozen (fewer: full passes are cheap)


class Hub:
    """Everything realtime in one server process."""

    def __init__(
        self,
        bus: Bus,
        store: LiveStore,
        road: MoveCommitter,
        notifier: Notifier,
        prefix: str,
        *,
        check_s: float = 2.0,
        heartbeat_s: float = 15.0,
        session_recheck_s: float = RECHECK_S,
        recent_bytes: int = 4 << 20,
        limits: SocketLimits | None = None,
        retry_after_s: float = 5.0,
        chat_limiter: Any = None,
        run: Callable[..., Awaitable[Any]] = in_thread,
        delayed_sessions: Any = None,
        delay_tick_s: float = 1.0,
    ) -> None:
        self.bus = bus
        self.store = store
        self.notifier = notifier
        self.prefix = prefix
        self.check_s = check_s
        # Presence re-announced to other instances, and seated players marked seen, this often.
        self.heartbeat_s = heartbeat_s
        self.limits = limits or SocketLimits()
        self.retry_after_s = retry_after_s
        self.run = run
        self.instance = uuid.uuid4().hex[:12]
        self.codec = Codec(self.instance)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._started = False
        self._loop_thread: int | None = None
        self.sessions = SessionIndex(store, run, recheck_s=session_recheck_s)
        self.registry = RoomRegistry(
            lambda game_id: Room(self, game_id), self.spawn, on_last_closed=self._trim
        )
        self.acks = PendingAcks()
        self.authority = GameAuthority(
            road, self.sessions, RecentActions(recent_bytes), self.acks, retry_after_s=retry_after_s
        )
        self.chat = ChatRelay(store, run, self.sessions, self.publish, chat_limiter)
        self.seen_marks = SeenMarks(
            lambda seen: self.run(self.store.mark_seen_many, seen, self.socket_ttl_s), self.spawn
        )
        # Open sockets per user and per address, in this process (the endpoint's caps).
        self.sockets_by_key: Counter[str] = Counter()
        self.checks = 0  # periodic checks done (tests wait on it)
        self.sweeps = 0  # session sweeps done (tests wait on it)
        self.closed_since_trim = 0  # sockets closed since memory was last given back
        self.open_sockets = 0
        self.peak_sockets = 0  # the most open at once since memory was last given back
        self.opened_since_freeze = 0  # sockets opened since the heap was last frozen
        self.sockets_frozen = False  # some open sockets' objects are frozen (memory.py)
        # The rooms of spectators at tables with a spectator delay (delayed_rooms.py), read
        # through `delayed_sessions`; None: every socket joins the game's room (a worker's hub
        # has no sockets, the in-process tests' no delays).
        self.delayed = (
            None if delayed_sessions is None else DelayedRooms(self, delayed_sessions, delay_tick_s)
        )

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect the bus and listen for commits (at app startup)."""
        if self._started:
            return
        self._started = True
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        await self.bus.connect()
        self.notifier.on_game_changed.append(self._on_game_changed)
        self.notifier.on_sessions_revoked.append(self._on_sessions_revoked)
        self.spawn(self._heartbeat())
        self.spawn(self._check_rooms())
        self.spawn(self._sweep_sessions())
        self.spawn(self._listen_sessions())

    async def stop(self) -> None:
        """Close every socket (1012: reconnect, maybe elsewhere) and the bus (at shutdown)."""
        if not self._started:
            return
        self._started = False
        for hook, listener in (
            (self.notifier.on_game_changed, self._on_game_changed),
            (self.notifier.on_sessions_revoked, self._on_sessions_revoked),
        ):
            with contextlib.suppress(ValueError):
                hook.remove(listener)  # type: ignore[arg-type]

        def drop_all(room: Room) -> None:
            for conn in list(room.conns):
                conn.drop(CLOSE_RESTARTING)

        await self.registry.close_all(drop_all)
        for task in list(self._tasks):
            task.cancel()
        await self.bus.disconnect()
        self.loop = None

    @property
    def rooms(self) -> dict[int, Room]:
        """The open rooms by game (tests and the bench read it)."""
        return self.registry.rooms

    @property
    def socket_ttl_s(self) -> float:
        """How long one heartbeat vouches for an open socket: two missed beats and a margin."""
        return 2 * self.heartbeat_s + 10.0

    def channel(self, game_id: int) -> str:
        """The bus channel of a game."""
        return f"{self.prefix}game:{game_id}"

    @property
    def sessions_channel(self) -> str:
        """The bus channel of session revocations (every instance listens)."""
        return f"{self.prefix}sessions"

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run `coro` in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def room_empty(self, room: Room) -> None:
        """A room's last socket left (RoomHost)."""
        self.registry.room_empty(room)

    async def publish(self, channel: str, message: BusMessage) -> bool:
        """Publish, logging instead of raising: whatever it carried was delivered here first,
        and the other instances catch up (the periodic check, stored chat, the session sweep)."""
        try:
            await self.bus.publish(channel, self.codec.encode(message))
        except Exception as exc:
            log.warning("bus publish on %s failed: %s", channel, exc)
            return False
        return True

    # --- sockets ---------------------------------------------------------------------------

    def opened(self, conn: Connection) -> None:
        """Index an open socket (by its session, for sign-outs); after a burst of opens, keep
        the sockets' objects out of the garbage collector's passes (memory.py)."""
        OPEN_SOCKETS.inc()
        self.sessions.add(conn)
        self.open_sockets += 1
        self.peak_sockets = max(self.peak_sockets, self.open_sockets)
        self.opened_since_freeze += 1
        if self.opened_since_freeze >= FREEZE_AFTER_OPENS and self.open_sockets >= FREEZE_FROM:
            self.opened_since_freeze = 0
            self.sockets_frozen = True
            memory.freeze()

    def closed(self, conn: Connection) -> None:
        """Forget a closed socket (and give memory back after a burst of closes: at least
        TRIM_AFTER_CLOSES, and as many as were open at most since the last time)."""
        OPEN_SOCKETS.dec()
        self.sessions.remove(conn)
        self.open_sockets -= 1
        self.closed_since_trim += 1
        if self.closed_since_trim >= max(TRIM_AFTER_CLOSES, self.peak_sockets):
            self._trim()

    def _trim(self) -> None:
        if self.closed_since_trim:
            self.closed_since_trim = 0
            self.opened_since_freeze = 0
            self.peak_sockets = self.open_sockets
            memory.release(thaw=self.sockets_frozen)
            # The sockets still open were frozen again with the rest.
            self.sockets_frozen = self.sockets_frozen and self.open_sockets > 0

    # --- timers ----------------------------------------------------------------------------

    async def _heartbeat(self) -> None:
        last = time.monotonic()
        while True:
            # Short sleeps: a changed `heartbeat_s` takes effect within a second.
            await asyncio.sleep(min(1.0, self.heartbeat_s))
            if time.monotonic() - last < self.heartbeat_s:
                continue
            last = time.monotonic()
            seen: dict[int, list[int]] = {}
            for room in list(self.rooms.values()):
                room.heartbeat()
                users = room.seated_users()
                if users:
                    seen[room.game_id] = users
            if seen:
                # One write for every seated player with a socket here (the bots' grace period).
                with contextlib.suppress(Exception):
                    await self.run(self.store.mark_seen_many, seen, self.socket_ttl_s)

    async def check_rooms_once(self) -> None:
        """Compare every room with the database (two light queries); reload the ones that lag."""
        rooms = self.registry.ready_rooms()
        if rooms:
            try:
                marks = await self.run(self.store.current_marks, [r.game_id for r in rooms])
            except Exception as exc:
                log.warning("room check failed (%d rooms): %s", len(rooms), exc)
                marks = None
            if marks is not None:
                for room in rooms:
                    if room.needs_refresh(marks.get(room.game_id)):
                        self.spawn(room.refresh_safely())
        self.checks += 1

    async def _check_rooms(self) -> None:
        """Every `check_s`. Bus traffic does not reset this timer, so a lost message, a failed
        reload or a move made through an instance without a shared bus is caught within
        `check_s` plus one reload."""
        while True:
            await asyncio.sleep(self.check_s)
            await self.check_rooms_once()

    async def _sweep_sessions(self) -> None:
        while True:
            await asyncio.sleep(self.sessions.recheck_s)
            try:
                await self.sessions.sweep()
            except Exception as exc:
                log.warning("session sweep failed: %s", exc)
            self.sweeps += 1

    # --- commits made elsewhere in this process, and the bus --------------------------------

    def _on_game_changed(self, game_id: int, version: int, move: Committed | None) -> None:
        """The one after-commit listener: every committed move and lobby change, from any road.
        Runs where the commit ran: on the loop (a socket's move written there) or in a worker
        thread, which hops onto the loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        delivery = self._deliver_change(game_id, version, move)
        if threading.get_ident() == self._loop_thread:
            self.spawn(delivery)
            return
        try:
            loop.call_soon_threadsafe(self.spawn, delivery)
        except RuntimeError:  # the loop closed meanwhile (shutdown)
            delivery.close()

    async def _deliver_change(self, game_id: int, version: int, move: Committed | None) -> None:
        """Local delivery first (our room, from memory or one reload; the mover's ack right
        behind its own patch), then the bus."""
        ack = self.acks.take(move) if move is not None else None
        room = self.registry.get(game_id)
        try:
            if room is not None and move is not None:
                await room.advance(move, ack=ack)
                ack = None  # sent by the room, even when it had to reload
            elif room is not None:
                await room.refresh_safely()
        except Exception as exc:
            log.warning("room %s: local delivery failed: %s", game_id, exc)
        if ack is not None:  # no room here any more, or its fan-out failed: the ack still goes
            ack[0].send(ack[1])
        message = changed_of(move) if move is not None else Changed(game_id, version)
        await self.publish(self.channel(game_id), message)

    def _on_sessions_revoked(self, _user_id: int, token_hashes: frozenset[str]) -> None:
        """Notifier hook (sign-out, a new sign-in, a guest becoming an account): in the
        committing thread. Our own sockets close at once, then the other instances are told."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        hashes = tuple(sorted(token_hashes))

        def on_loop() -> None:
            self.sessions.close(hashes)
            self.spawn(self.publish(self.sessions_channel, Revoked(hashes)))

        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(on_loop)

    async def _listen_sessions(self) -> None:
        async with self.bus.subscribe(self.sessions_channel) as sub:
            async for text in sub:
                received = self.codec.decode(text)
                if received is not None and isinstance(received.message, Revoked):
                    self.sessions.close(received.message.sessions)
