"""Synchronous database work for the sockets; every function here runs in a worker thread.

The socket layer reads through the same services as the HTTP API (lobby.get_game,
games.load_state, games.submit_action), so both paths see and change games identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import ChatMessage, Move
from app.services import clocks, games, lobby, presence, users
from app.services.errors import ServiceError
from app.services.names import seat_name
from app.services.notify import Notifier

# Log frames are sent for at most this many moves per refresh; older ones come from GET /log.
MAX_LOG_MOVES = 20
CHAT_HISTORY = 50

Sessions = sessionmaker[Session]


@dataclass(frozen=True)
class SeatInfo:
    """Who holds a seat: its human owner (if any) and whether a bot plays it now."""

    seat: int
    user_id: int | None
    bot_level: str | None
    name: str


@dataclass(frozen=True)
class MoveInfo:
    """One accepted move's full events (filtered per viewer before they leave the server)."""

    seq: int
    seat: int
    player: str
    events: list[dict[str, Any]]
    timeout: bool = False  # a bot played it: the seat's clock had run out (issue 14)


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
    clock: dict[str, Any] | None = None  # clocks.public(game.clock): fixed per version (issue 14)

    def seat_of(self, user_id: int | None) -> SeatInfo | None:
        """The seat `user_id` owns, if any."""
        if user_id is None:
            return None
        return next((s for s in self.seats if s.user_id == user_id), None)

    def same_as(self, other: GameSnap | None) -> bool:
        """Nothing a viewer could see has changed."""
        if other is None:
            return False
        return (self.status, self.version, self.seats) == (other.status, other.version, other.seats)


@dataclass(frozen=True)
class Viewer:
    """Who opened a socket: a signed-in user (id and name) or an anonymous spectator."""

    user_id: int | None
    name: str | None
    # The session the socket was opened with: checked again before each action and chat line,
    # so signing out (or a revoked session) stops an open socket from acting for the user.
    token: str | None = field(default=None, repr=False, compare=False)


def check_session(db: Any, viewer: Viewer) -> None:
    """Raise `not_signed_in` unless the viewer's session is still valid for the same user."""
    user = users.user_for_token(db, viewer.token) if viewer.token else None
    if user is None or user.id != viewer.user_id:
        raise ServiceError("not_signed_in", "your session has ended; sign in again to play")


def load_game(sessions: Sessions, game_id: int, since: int | None) -> GameSnap:
    """The game now, with the moves after version `since` (none when `since` is None)."""
    with sessions() as db:
        game = lobby.get_game(db, game_id)
        state = games.load_state(db, game) if game.snapshot is not None else None
        seats = tuple(
            SeatInfo(s.seat, s.user_id, s.bot_level, seat_name(game.id, s)) for s in game.seats
        )
        moves: list[MoveInfo] = []
        if since is not None and game.version > since and state is not None:
            first = max(since, game.version - MAX_LOG_MOVES)
            rows = db.scalars(
                select(Move)
                .where(Move.game_id == game_id, Move.seq > first, Move.seq <= game.version)
                .order_by(Move.seq)
            )
            moves = [MoveInfo(m.seq, m.seat, seats[m.seat].name, m.events, m.timeout) for m in rows]
        clock = clocks.public(game.clock)  # issue 14
        return GameSnap(game.id, game.status, game.version, game.to_act, seats, state, moves, clock)


def authorise(
    sessions: Sessions, game_id: int, token: str | None, invite_code: str | None
) -> Viewer:
    """Who the session token belongs to, if they may watch `game_id`; raises ServiceError."""
    with sessions() as db:
        user = users.user_for_token(db, token) if token else None
        game = lobby.get_game(db, game_id)
        lobby.check_access(game, user.id if user else None, invite_code)
        return Viewer(user.id, user.display_name, token) if user else Viewer(None, None)


def submit(
    sessions: Sessions,
    notifier: Notifier | None,
    game_id: int,
    viewer: Viewer,
    version: int,
    action: dict[str, Any],
) -> tuple[int, list[dict[str, Any]]]:
    """Submit through the same service function as POST /api/games/{id}/actions."""
    with sessions() as db:
        check_session(db, viewer)
        user_id = viewer.user_id
        presence.mark_seen(db, game_id, user_id, back=True)  # as over HTTP: a move ends "left"
        return games.submit_action(db, game_id, user_id, version, action, notifier=notifier)


def chat_row(row: ChatMessage, seat: int | None) -> dict[str, Any]:
    """A stored chat message as sent to clients."""
    return {
        "id": row.id,
        "user_id": row.user_id,
        "name": row.name,
        "seat": seat,
        "text": row.text,
        "at": row.created_at.isoformat(),
    }


def add_chat(sessions: Sessions, game_id: int, viewer: Viewer, text: str) -> dict[str, Any]:
    """Store a chat line (already cleaned) and return it as sent to clients."""
    if viewer.user_id is None or viewer.name is None:
        raise ServiceError("not_signed_in", "sign in (as a guest is enough) to chat")
    with sessions() as db:
        check_session(db, viewer)
        game = lobby.get_game(db, game_id)
        seat = lobby.seat_of(game, viewer.user_id)
        row = ChatMessage(game_id=game_id, user_id=viewer.user_id, name=viewer.name, text=text)
        db.add(row)
        db.commit()
        return chat_row(row, seat.seat if seat is not None else None)


def recent_chat(sessions: Sessions, game_id: int) -> list[dict[str, Any]]:
    """The last CHAT_HISTORY chat lines of a game, oldest first."""
    with sessions() as db:
        game = lobby.get_game(db, game_id)
        seats = {s.user_id: s.seat for s in game.seats if s.user_id is not None}
        rows = list(
            db.scalars(
                select(ChatMessage)
                .where(ChatMessage.game_id == game_id)
                .order_by(ChatMessage.id.desc())
                .limit(CHAT_HISTORY)
            )
        )
        return [chat_row(r, seats.get(r.user_id)) for r in reversed(rows)]
