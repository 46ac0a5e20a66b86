"""Who watches a game: sockets per seat and spectators, over every instance, coalesced.

Each instance counts its own sockets of the game and announces the counts on the game's channel;
the others' counts expire unless refreshed (every heartbeat). Changes within a short window go
out as one frame per socket; the window grows with the room, so opening n sockets costs O(n)
presence frames, not O(n^2).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

from app.realtime import documents as docs
from app.realtime.codec import Presence
from app.realtime.connection import Connection

TTL_S = 45.0  # another instance's counts expire unless refreshed
MIN_DELAY_S = 0.2
DELAY_PER_SOCKET_S = 0.003
MAX_DELAY_S = 3.0


class RoomPresence:
    """The presence picture of one room: ours, the other instances', and the frame sent."""

    def __init__(
        self,
        game_id: int,
        instance: str,
        conns: Collection[Connection],
        snap: Callable[[], Any],
        publish: Callable[[Presence], None],
    ) -> None:
        self.game_id = game_id
        self.instance = instance
        self.conns = conns
        self.snap = snap
        self.publish = publish
        # instance id -> (seat counts, spectators, loop time); ours is kept up to date here.
        self.counts: dict[str, tuple[dict[int, int], int, float]] = {}
        self.frame: str | None = None
        self.closed = False
        self._handle: asyncio.TimerHandle | None = None
        self._publish = False

    def local(self) -> tuple[dict[int, int], int]:
        """This instance's sockets of the game: per seat, and spectators."""
        seats = Counter(c.key.seat for c in self.conns if c.key.seat is not None)
        spectators = sum(1 for c in self.conns if c.key.seat is None)
        return dict(seats), spectators

    def own(self, empty: bool = False, hello: bool = False) -> Presence:
        """Our counts as a bus message (`empty`: we hold no one any more)."""
        seats, spectators = ({}, 0) if empty else self.local()
        return Presence(seats, spectators, hello)

    def heard(self, origin: str, message: Presence) -> None:
        """Another instance's counts."""
        now = asyncio.get_running_loop().time()
        self.counts[origin] = (message.seats, message.spectators, now)
        self.changed(publish=False)

    def changed(self, publish: bool = True) -> None:
        """Schedule one coalesced update (local sockets, and, with `publish`, other instances)."""
        self._publish |= publish
        if self._handle is None and not self.closed:
            delay = min(MAX_DELAY_S, MIN_DELAY_S + DELAY_PER_SOCKET_S * len(self.conns))
            self._handle = asyncio.get_running_loop().call_later(delay, self.flush)

    def flush(self) -> None:
        """Recount, tell local sockets if the merged picture changed, tell other instances."""
        self._handle = None
        now = asyncio.get_running_loop().time()
        seats, spectators = self.local()
        self.counts[self.instance] = (seats, spectators, now)
        total_seats: Counter[int] = Counter()
        total_spectators = 0
        for instance, (counts, specs, at) in list(self.counts.items()):
            if instance != self.instance and now - at > TTL_S:
                del self.counts[instance]
                continue
            total_seats.update(counts)
            total_spectators += specs
        frame = docs.presence_frame(self.snap(), dict(total_seats), total_spectators, self.game_id)
        self.frame = frame
        for conn in list(self.conns):
            if conn.presence_sent != frame:  # each socket hears each picture once
                conn.presence_sent = frame
                conn.send(frame)
        if self._publish:
            self._publish = False
            self.publish(self.own())

    def greet(self, conn: Connection) -> None:
        """A newcomer hears the latest picture at once; everyone hears the new count shortly."""
        if self.frame is not None:
            conn.presence_sent = self.frame
            conn.send(self.frame)
        self.changed()

    def close(self) -> None:
        """Stop the timer (the room closed)."""
        self.closed = True
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
