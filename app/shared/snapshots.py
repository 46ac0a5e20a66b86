"""What the live core holds of a game and of a socket's viewer: snapshots a room keeps, the
marks its periodic check compares, who opened a socket. Plain values shared by the live core
(app/realtime) and its storage (app/services/live), so neither takes its types from the other.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from app.shared.moves import Committed


def token_hash(token: str) -> str:
    """The SHA-256 under which a session token is stored (and named to revocation listeners)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatInfo:
    """Who holds a seat: its human owner (if any), whether a bot plays it now, whether they left."""

    seat: int
    user_id: int | None
    bot_level: str | None
    name: str
    left: bool = False


@dataclass(frozen=True)
class MoveInfo:
    """One accepted move as the log shows it (events filtered per viewer before they leave)."""

    seq: int
    seat: int
    player: str
    events: list[dict[str, Any]]
    timeout: bool = False  # a bot played it: the seat's clock had run out
    at: str | None = None  # when it was committed (ISO 8601), as GET /log says
    action: dict[str, Any] | None = None  # canonical; shown only once the game is over


@dataclass(frozen=True)
class GameSnap:
    """A game as a room needs it: lifecycle, seats, engine state, and the moves since last time."""

    game_id: int
    status: str
    version: int
    to_act: int | None
    seats: tuple[SeatInfo, ...]
    state: Any | None
    moves: list[MoveInfo] = field(default_factory=list)
    clock: dict[str, Any] = field(default_factory=lambda: {"mode": "none"})  # clocks.public

    @property
    def clocked(self) -> bool:
        """The table has a turn clock."""
        return self.clock.get("mode", "none") != "none"

    def seat_of(self, user_id: int | None) -> SeatInfo | None:
        """The seat `user_id` owns, if any."""
        if user_id is None:
            return None
        return next((s for s in self.seats if s.user_id == user_id), None)

    def same_as(self, other: GameSnap | None) -> bool:
        """Nothing a viewer could see has changed (the clock included: a vacation or an extension
        changes it without a move)."""
        if other is None:
            return False
        mine = (self.status, self.version, self.seats, self.clock)
        return mine == (other.status, other.version, other.seats, other.clock)

    def bots(self) -> tuple[str | None, ...]:
        """Per seat: the level of the bot playing it now, if any."""
        return tuple(s.bot_level for s in self.seats)

    def after(self, move: Committed) -> GameSnap:
        """This snapshot advanced by a move committed on top of it (no database read)."""
        name = self.seats[move.seat].name
        info = MoveInfo(
            move.version, move.seat, name, move.events, move.timeout, move.at, move.action
        )
        seats = self.seats
        if move.bots != self.bots():  # a bot gave back a seat it borrowed for a timed-out turn
            seats = tuple(replace(s, bot_level=move.bots[s.seat]) for s in seats)
        return replace(
            self,
            status=move.status,
            version=move.version,
            to_act=move.to_act,
            state=move.state,
            moves=[info],
            clock=move.clock,
            seats=seats,
        )


@dataclass(frozen=True)
class Mark:
    """What the rooms' periodic check compares: a change in any part means "reload"."""

    version: int
    status: str
    seats: tuple[tuple[int, int | None, str | None, bool], ...]


def marks_of(snap: GameSnap) -> Mark:
    """The mark of a snapshot a room holds."""
    seats = tuple((s.seat, s.user_id, s.bot_level, s.left) for s in snap.seats)
    return Mark(snap.version, snap.status, seats)


@dataclass(frozen=True)
class Viewer:
    """Who opened a socket: a signed-in user (id and name) or an anonymous spectator."""

    user_id: int | None
    name: str | None
    # The session the socket was opened with: checked again before actions and chat lines, and
    # swept every few seconds, so a revoked session stops an open socket even without the bus.
    token: str | None = field(default=None, repr=False, compare=False)

    @property
    def token_hash(self) -> str | None:
        """The session's hash as stored (what revocation notices name)."""
        return token_hash(self.token) if self.token else None
