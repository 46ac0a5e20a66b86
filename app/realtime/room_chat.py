"""A room's chat: the lines delivered to its sockets once each, and the history a joining
socket is sent, read once and then kept up to date by the lines delivered here (keyed by the
seats it names), so that a crowd of spectators arriving costs one read, not one each."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from app.realtime.connection import Connection
from app.realtime.protocol import dumps
from app.realtime.shared_reads import SharedReads
from app.services.tables.chat import HISTORY as CHAT_HISTORY

log = logging.getLogger(__name__)

CHAT_IDS_KEPT = 256  # ids of chat lines delivered here, so a catch-up repeats none

# (game id, user id -> seat, after id) -> the stored lines, oldest first (a blocking read,
# run in a worker thread)
ReadLines = Callable[[dict[int, int]], Awaitable[list[dict[str, Any]]]]


class RoomChat:
    """The chat of one room's sockets."""

    def __init__(self, game_id: int, read_lines: ReadLines) -> None:
        self.game_id = game_id
        self._read_lines = read_lines
        self._ids: deque[int] = deque(maxlen=CHAT_IDS_KEPT)
        self._history: tuple[dict[int, int], deque[dict[str, Any]]] | None = None
        self._delivered = 0  # lines delivered here so far
        self._reads = SharedReads()

    async def history_for(self, seats: dict[int, int]) -> list[dict[str, Any]]:
        """The last lines a joining socket is sent (the kept copy, else read and kept)."""
        kept = self._history
        if kept is not None and kept[0] == seats:
            return list(kept[1])
        try:
            # Sockets joining together share one read (the first keeps it for the later ones).
            lines = await self._reads.read(tuple(seats.items()), lambda: self._read(seats))
        except Exception as exc:  # chat is a nicety: the game goes on without its history
            log.warning("room %s: chat history failed: %s", self.game_id, exc)
            return []
        return list(lines)

    async def _read(self, seats: dict[int, int]) -> list[dict[str, Any]]:
        delivered = self._delivered
        lines = await self._read_lines(seats)
        # A line delivered while we read may be missing from what we read: keep nothing then
        # (the sockets themselves get that line from `deliver`), the next join reads again.
        if delivered == self._delivered:
            self._history = (seats, deque(lines, maxlen=CHAT_HISTORY))
        return lines

    def deliver(self, message: dict[str, Any], conns: Iterable[Connection]) -> None:
        """A stored chat line to these sockets (once each: a catch-up repeats none)."""
        line_id = message.get("id", 0)
        if line_id in self._ids:
            return
        self._ids.append(line_id)
        self._delivered += 1
        if self._history is not None:
            self._history[1].append(message)
        frame = dumps({"type": "chat", "game_id": self.game_id, **message})
        for conn in list(conns):
            if line_id > conn.chat_seen:
                conn.send(frame)

    async def missed(self, seats: dict[int, int]) -> list[dict[str, Any]]:
        """The stored lines to deliver again after the bus may have been away (none if the
        read fails: chat is a nicety); those delivered already are skipped by `deliver`."""
        try:
            return await self._read_lines(seats)
        except Exception as exc:
            log.warning("room %s: chat catch-up failed: %s", self.game_id, exc)
            return []
