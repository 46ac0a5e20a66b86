"""Spectators of a table with a spectator delay: rooms that show the game as it was.

Such a spectator's socket joins a delayed room instead of the game's room. A delayed room is
an ordinary Room (room.py: documents, patches, resyncs, chat and presence work as for any
room) whose store answers with the game as its spectators may see it
(app/services/live/delayed.py: the state at `spectator_delay.visible_version`). It
never applies a live move: the game's bus messages about moves are ignored, and a timer
(SEADRAGONS_SPECTATOR_DELAY_TICK_SECONDS) compares every delayed room with what its spectators
may now see and reloads the ones that may see more. So nothing newer than the delay allows
reaches a delayed spectator, whatever road a move takes (tests/realtime/test_watch_delay.py).

The delayed rooms share the game's channel, for chat and presence (players see that someone
watches), under an identity of their own on the bus; a line said in a delayed room reaches the
game's room on this instance directly (the bus skips a sender's own instance). A socket whose
user takes a seat is closed with 1012, and reconnects into the game's room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from app.realtime.codec import BusMessage, Changed, Codec, Received
from app.realtime.protocol import CLOSE_RESTARTING
from app.realtime.registry import RoomRegistry
from app.realtime.room import Room
from app.realtime.shared_reads import SharedReads
from app.realtime.storage import GameSnap, LiveStore, Mark, Viewer
from app.services.live import delayed as delayed_sql

log = logging.getLogger(__name__)

KNOWN_GAMES = 4096  # games whose "has a delay?" answer is kept (one read per game, not socket)


class DelayedStore:
    """The live store as a delayed game's spectators see it (reads only)."""

    def __init__(self, inner: LiveStore, sessions: Any) -> None:
        self.inner = inner
        self.sessions = sessions

    def load_game(self, game_id: int, since: int | None) -> GameSnap:
        return delayed_sql.load_delayed(self.sessions, self.inner, game_id, since)

    def current_marks(self, game_ids: list[int]) -> dict[int, Mark]:
        return delayed_sql.delayed_marks(self.sessions, self.inner, game_ids)

    def chat_since(self, game_id: int, seats: dict[int, int], after: int = 0) -> list[Any]:
        return self.inner.chat_since(game_id, seats, after)

    def cache_state(self, game_id: int, version: int, state: Any) -> None:
        """Never used: a delayed room replays no move."""

    def has_delay(self, game_id: int) -> bool:
        return delayed_sql.has_delay(self.sessions, game_id)

    def is_seated(self, game_id: int, user_id: int) -> bool:
        return delayed_sql.is_seated(self.sessions, game_id, user_id)


class DelayedRoom(Room):
    """A room of a delayed game's spectators."""

    async def on_bus(self, received: Received) -> None:
        if isinstance(received.message, Changed):
            return  # a live move: never shown from here; the delay's timer reloads this room
        await super().on_bus(received)

    def deliver_chat(self, message: dict[str, Any]) -> None:
        super().deliver_chat(message)
        main = self.host.main_room(self.game_id)  # type: ignore[attr-defined]
        if main is not None:
            main.deliver_chat(message)  # said here: the bus does not bring it back to us


class DelayedHost:
    """The RoomHost of delayed rooms: the hub's bus and threads, its own bus identity."""

    def __init__(self, hub: Any, store: DelayedStore) -> None:
        self.hub = hub
        self.store = store
        self.bus = hub.bus
        self.codec = Codec(f"{hub.instance}-delayed")
        self.registry: RoomRegistry | None = None

    def channel(self, game_id: int) -> str:
        return self.hub.channel(game_id)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.hub.run(fn, *args)

    async def publish(self, channel: str, message: BusMessage) -> bool:
        try:
            await self.bus.publish(channel, self.codec.encode(message))
        except Exception as exc:
            log.warning("bus publish on %s failed: %s", channel, exc)
            return False
        return True

    def spawn(self, coro: Awaitable[Any]) -> None:
        self.hub.spawn(coro)

    def room_empty(self, room: Room) -> None:
        assert self.registry is not None
        self.registry.room_empty(room)

    def main_room(self, game_id: int) -> Room | None:
        return self.hub.registry.get(game_id)


class DelayedRooms:
    """The delayed rooms of this instance and the timer that advances them."""

    def __init__(self, hub: Any, sessions: Any, tick_s: float) -> None:
        self.hub = hub
        self.host = DelayedHost(hub, DelayedStore(hub.store, sessions))
        self.registry = RoomRegistry(lambda game_id: DelayedRoom(self.host, game_id), hub.spawn)
        self.host.registry = self.registry
        self.tick_s = tick_s
        self.ticks = 0  # timer rounds done (tests wait on it)
        self._task: asyncio.Task[None] | None = None
        self._known: OrderedDict[int, bool] = OrderedDict()  # game id -> has a delay
        self._reads = SharedReads()  # a table's sockets opening together read its delay once

    @property
    def rooms(self) -> dict[int, Room]:
        return self.registry.rooms

    async def registry_for(self, game_id: int, viewer: Viewer) -> RoomRegistry:
        """Where a socket of `viewer` on `game_id` goes: a delayed room for a spectator of a
        delayed table, else the game's room."""
        store = self.host.store
        delayed = self._known.get(game_id)
        if delayed is None:  # read once per game: a table's delay never changes
            delayed = await self._reads.read(
                game_id, lambda: self.hub.run(store.has_delay, game_id)
            )
            self._known[game_id] = delayed
            while len(self._known) > KNOWN_GAMES:
                self._known.popitem(last=False)
        if not delayed:
            return self.hub.registry
        if viewer.user_id is not None and await self.hub.run(
            store.is_seated, game_id, viewer.user_id
        ):
            return self.hub.registry
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="delayed")
        return self.registry

    async def tick_once(self) -> None:
        """Reload every delayed room whose spectators may now see more; close the sockets of
        users who took a seat meanwhile (they reconnect into the game's room)."""
        rooms = self.registry.ready_rooms()
        if rooms:
            try:
                marks = await self.hub.run(
                    self.host.store.current_marks, [r.game_id for r in rooms]
                )
            except Exception as exc:
                log.warning("delayed rooms check failed: %s", exc)
                marks = None
            for room in rooms:
                if marks is not None and room.needs_refresh(marks.get(room.game_id)):
                    await room.refresh_safely()
                snap = room.snap
                for conn in list(room.conns):
                    if snap is not None and snap.seat_of(conn.viewer.user_id) is not None:
                        conn.drop(CLOSE_RESTARTING)
        self.ticks += 1

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        beat = loop.time()
        while True:
            await asyncio.sleep(self.tick_s)
            await self.tick_once()
            if loop.time() - beat >= self.hub.heartbeat_s:
                beat = loop.time()
                for room in list(self.rooms.values()):
                    room.heartbeat()  # presence re-announced, as the hub does for its rooms

    async def stop(self) -> None:
        """Close every delayed room's sockets (1012) and the rooms (at shutdown)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

        def drop_all(room: Room) -> None:
            for conn in list(room.conns):
                conn.drop(CLOSE_RESTARTING)

        await self.registry.close_all(drop_all)
