"""Acks owed to movers, matched to their committed moves by action id.

A socket's move is committed by the one road like any other; the hub's one listener fans every
committed move out, and when the move carries an action id that a socket here is waiting on,
the mover's ack goes right behind its own patch. The ack's text is built once, by whichever
side comes first: the authority (to remember the answer for retries) or the fan-out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.realtime.connection import Connection
from app.realtime.protocol import ack_frame
from app.shared.moves import ActionId, Committed, MoveCommand

Key = tuple[int, int, str]  # (game, user, action id as text)


@dataclass(eq=False)
class Owed:
    """One mover waiting for the ack of one action."""

    conn: Connection
    key: Key
    _text: str | None = field(default=None, repr=False)

    def text_for(self, move: Committed) -> str:
        """The ack of `move` (built once)."""
        if self._text is None:
            action_id: ActionId = move.action_id if move.action_id is not None else self.key[2]
            self._text = ack_frame(action_id, move.version, move.events_for(move.seat))
        return self._text


class PendingAcks:
    """The acks owed by this process, until their moves are fanned out or refused."""

    def __init__(self) -> None:
        self._owed: dict[Key, Owed] = {}

    def __len__(self) -> int:
        return len(self._owed)

    def expect(self, command: MoveCommand, conn: Connection) -> Owed:
        """Owe `conn` the ack of `command` (a person's move with an action id)."""
        assert command.user_id is not None and command.action_id is not None
        key = (command.game_id, command.user_id, str(command.action_id))
        owed = self._owed[key] = Owed(conn, key)
        return owed

    def discard(self, owed: Owed) -> None:
        """The move was refused or failed: no ack is owed (its error is sent instead)."""
        if self._owed.get(owed.key) is owed:
            del self._owed[owed.key]

    def take(self, move: Committed) -> tuple[Connection, str] | None:
        """The socket owed this committed move's ack, and the ack; None if none here."""
        if move.action_id is None or move.user_id is None:
            return None
        owed = self._owed.pop((move.game_id, move.user_id, str(move.action_id)), None)
        if owed is None:
            return None
        return owed.conn, owed.text_for(move)
