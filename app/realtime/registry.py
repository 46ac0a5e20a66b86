"""The rooms of this instance by game: created on first use, closed a while after the last
socket leaves (a reloading tab comes straight back into the same room)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from app.metrics import LIVE_ROOMS
from app.realtime.connection import Connection
from app.realtime.room import Room

GRACE_S = 5.0  # an empty room lingers this long


class RoomRegistry:
    """Game id -> Room, for one instance."""

    def __init__(
        self,
        make_room: Callable[[int], Room],
        spawn: Callable[[Awaitable[Any]], None],
        *,
        grace_s: float = GRACE_S,
        on_last_closed: Callable[[], None] | None = None,
    ) -> None:
        self.make_room = make_room
        self.spawn = spawn
        self.grace_s = grace_s
        self.on_last_closed = on_last_closed
        self.rooms: dict[int, Room] = {}

    def get(self, game_id: int) -> Room | None:
        """The open room of a game here, if any."""
        room = self.rooms.get(game_id)
        return room if room is not None and not room.closed else None

    def ready_rooms(self) -> list[Room]:
        """Rooms that have loaded their game and are open (what the periodic check compares)."""
        return [r for r in list(self.rooms.values()) if r.ready.is_set() and not r.closed]

    async def join(self, game_id: int, conn: Connection) -> Room | None:
        """Put `conn` in the game's room (created on first use); None if the game is gone."""
        for _attempt in range(3):
            room = self.rooms.get(game_id)
            if room is None or room.closed:
                room = self.rooms[game_id] = self.make_room(game_id)
                LIVE_ROOMS.set(len(self.rooms))
            if await room.join(conn):
                return room
            if not room.closed:
                return None  # the game could not be loaded
        return None

    def room_empty(self, room: Room) -> None:
        """Close an empty room after the grace period unless someone came back."""

        async def later() -> None:
            await asyncio.sleep(self.grace_s)
            async with room.lock:
                if room.conns or room.closed:
                    return
                room.closed = True
                if self.rooms.get(room.game_id) is room:
                    del self.rooms[room.game_id]
                LIVE_ROOMS.set(len(self.rooms))
            await room.close()
            if not self.rooms and self.on_last_closed is not None:  # a quiet moment
                self.on_last_closed()

        self.spawn(later())

    async def close_all(self, before: Callable[[Room], None]) -> None:
        """Close every room (`before` runs first on each: closing its sockets)."""
        for room in list(self.rooms.values()):
            before(room)
            await room.close()
        self.rooms.clear()
        LIVE_ROOMS.set(0)
