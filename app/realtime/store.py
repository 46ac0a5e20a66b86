"""Synchronous database work for the sockets; every function here runs in a worker thread.

Moves go through the same service function as the HTTP API (games.submit_action), so both paths
check and change games identically. Reads for the rooms are light Core queries: a room reloads
only when a change did not reach it in-process (another instance's move, a lobby change, a lost
notice), and its periodic check reads just versions, statuses and seats.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.db.models import ChatMessage, Game, Move, Seat, User
from app.services import clocks, games, lobby, presence, users
from app.services.cache import cache_for
from app.services.errors import ServiceError
from app.services.names import display_seat_name
from app.services.notify import Notifier

if TYPE_CHECKING:
    from app.services.games import Committed

# Log frames are sent for at most this many moves per refresh; older ones come from GET /log.
MAX_LOG_MOVES = 20
CHAT_HISTORY = 50

Sessions = sessionmaker[Session]


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
    clock: dict[str, Any] = field(default_factory=lambda: {"mode": "none"})  # clocks.public

    @property
    def clocked(self) -> bool:
        """The table has a turn clock (issue 14)."""
        return self.clock.get("mode", "none") != "none"

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

    def bots(self) -> tuple[str | None, ...]:
        """Per seat: the level of the bot playing it now, if any."""
        return tuple(s.bot_level for s in self.seats)

    def after(self, move: Committed) -> GameSnap:
        """This snapshot advanced by a move committed on top of it (no database read)."""
        info = MoveInfo(
            move.version, move.seat, self.seats[move.seat].name, move.events, move.timeout
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
class Viewer:
    """Who opened a socket: a signed-in user (id and name) or an anonymous spectator."""

    user_id: int | None
    name: str | None
    # The session the socket was opened with: checked again before actions and chat lines (at
    # most every few seconds), so a revoked session stops an open socket from acting for the user.
    token: str | None = field(default=None, repr=False, compare=False)

    @property
    def token_hash(self) -> str | None:
        """The session's hash as stored (what revocation notices name)."""
        return users.token_hash(self.token) if self.token else None


def check_session(sessions: Sessions, viewer: Viewer) -> None:
    """Raise `not_signed_in` unless the viewer's session is still valid for the same user."""
    with sessions() as db:
        user = users.user_for_token(db, viewer.token) if viewer.token else None
    if user is None or user.id != viewer.user_id:
        raise ServiceError("not_signed_in", "your session has ended; sign in again to play")


def _seats(db: Session, game_id: int) -> tuple[SeatInfo, ...]:
    rows = db.execute(
        select(Seat.seat, Seat.user_id, Seat.bot_level, Seat.left_at, User.display_name)
        .outerjoin(User, User.id == Seat.user_id)
        .where(Seat.game_id == game_id)
        .order_by(Seat.seat)
    )
    return tuple(
        SeatInfo(
            r.seat,
            r.user_id,
            r.bot_level,
            display_seat_name(game_id, r.seat, r.display_name, r.bot_level),
            r.left_at is not None,
        )
        for r in rows
    )


def load_game(sessions: Sessions, game_id: int, since: int | None) -> GameSnap:
    """The game now, with the moves after version `since` (none when `since` is None).

    Light reads (no ORM objects): the snapshot column is fetched only when this process's state
    cache does not already hold the state at the game's version.
    """
    with sessions() as db:
        row = db.execute(
            select(Game.status, Game.version, Game.to_act, Game.clock).where(Game.id == game_id)
        ).first()
        if row is None:
            raise ServiceError("not_found", f"there is no game {game_id}")
        seats = _seats(db, game_id)
        state = None
        if row.status in ("live", "finished"):
            cache = cache_for(db.get_bind())  # type: ignore[arg-type]
            state = cache.get(game_id, row.version)
            if state is None:
                snapshot = db.scalar(
                    select(Game.snapshot).where(Game.id == game_id, Game.version == row.version)
                )
                if snapshot is None:  # moved on between the two reads: read it all again
                    return load_game(sessions, game_id, since)
                state = rules.state_from_json(snapshot)
                cache.put(game_id, row.version, state)
        moves: list[MoveInfo] = []
        if since is not None and row.version > since and state is not None:
            first = max(since, row.version - MAX_LOG_MOVES)
            moves = [
                MoveInfo(m.seq, m.seat, seats[m.seat].name, m.events, m.timeout)
                for m in db.execute(
                    select(Move.seq, Move.seat, Move.events, Move.timeout)
                    .where(Move.game_id == game_id, Move.seq > first, Move.seq <= row.version)
                    .order_by(Move.seq)
                )
            ]
        clock = clocks.public(row.clock)  # issue 14: the same for every viewer
        return GameSnap(game_id, row.status, row.version, row.to_act, seats, state, moves, clock)


@dataclass(frozen=True)
class Mark:
    """What the rooms' periodic check compares: a change in any part means "reload"."""

    version: int
    status: str
    seats: tuple[tuple[int, int | None, str | None, bool], ...]


def marks_of(snap: GameSnap) -> Mark:
    """The mark of a snapshot the room holds."""
    return Mark(
        snap.version,
        snap.status,
        tuple((s.seat, s.user_id, s.bot_level, s.left) for s in snap.seats),
    )


def current_marks(sessions: Sessions, game_ids: list[int]) -> dict[int, Mark]:
    """Version, status and seats of many games in two small queries (the rooms' safety net)."""
    if not game_ids:
        return {}
    with sessions() as db:
        games_rows = db.execute(
            select(Game.id, Game.version, Game.status).where(Game.id.in_(game_ids))
        ).all()
        seat_rows = db.execute(
            select(Seat.game_id, Seat.seat, Seat.user_id, Seat.bot_level, Seat.left_at)
            .where(Seat.game_id.in_(game_ids))
            .order_by(Seat.game_id, Seat.seat)
        ).all()
    seats: dict[int, list[tuple[int, int | None, str | None, bool]]] = {}
    for r in seat_rows:
        seats.setdefault(r.game_id, []).append(
            (r.seat, r.user_id, r.bot_level, r.left_at is not None)
        )
    return {g.id: Mark(g.version, g.status, tuple(seats.get(g.id, ()))) for g in games_rows}


def authorise(
    sessions: Sessions, game_id: int, token: str | None, invite_code: str | None
) -> Viewer:
    """Who the session token belongs to, if they may watch `game_id`; raises ServiceError."""
    with sessions() as db:
        user = users.user_for_token(db, token) if token else None
        game = lobby.get_game(db, game_id)
        lobby.check_access(game, user.id if user else None, invite_code)
        return Viewer(user.id, user.display_name, token) if user else Viewer(None, None)


# Set while this thread submits a socket's move: the hub's after-commit hook then leaves the
# fan-out to the socket's own handler, which sends the mover's ack right behind its patch.
SOCKET_SUBMIT = threading.local()


def submit(
    sessions: Sessions,
    notifier: Notifier | None,
    game_id: int,
    user_id: int,
    version: int,
    action: dict[str, Any],
    known: games.Known | None,
    was_left: bool,
) -> games.Committed:
    """Submit through the same service function as POST /api/games/{id}/actions."""
    SOCKET_SUBMIT.active = True
    try:
        with sessions() as db:
            if was_left:  # as over HTTP: a move ends a "left" mark
                presence.mark_seen(db, game_id, user_id, back=True)
            return games.submit_action(
                db, game_id, user_id, version, action, notifier=notifier, known=known
            )
    finally:
        SOCKET_SUBMIT.active = False


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


def add_chat(
    sessions: Sessions, game_id: int, viewer: Viewer, text: str, seat: int | None
) -> dict[str, Any]:
    """Store a chat line (already cleaned) and return it as sent to clients."""
    if viewer.user_id is None or viewer.name is None:
        raise ServiceError("not_signed_in", "sign in (as a guest is enough) to chat")
    with sessions() as db:
        row = ChatMessage(game_id=game_id, user_id=viewer.user_id, name=viewer.name, text=text)
        db.add(row)
        db.commit()
        return chat_row(row, seat)


def mark_seen_many(
    sessions: Sessions, seen: dict[int, list[int]], socket_ttl_s: float | None = None
) -> None:
    """Mark these seated users present (game id -> user ids) in one transaction; with
    `socket_ttl_s`, as having a socket open on the game for that long."""
    with sessions() as db:
        for game_id, user_ids in seen.items():
            presence.mark_many_seen(db, game_id, user_ids, socket_ttl_s)
        db.commit()


def socket_closed(sessions: Sessions, game_id: int, user_id: int) -> None:
    """A user's last socket on a game closed here (seen now; no open socket)."""
    with sessions() as db:
        presence.socket_closed(db, game_id, user_id)
        db.commit()


def recent_chat(
    sessions: Sessions, game_id: int, seats: dict[int, int] | None = None
) -> list[dict[str, Any]]:
    """The last CHAT_HISTORY chat lines of a game, oldest first; `seats`: user id -> seat."""
    with sessions() as db:
        if seats is None:
            seats = {s.user_id: s.seat for s in _seats(db, game_id) if s.user_id is not None}
        rows = list(
            db.scalars(
                select(ChatMessage)
                .where(ChatMessage.game_id == game_id)
                .order_by(ChatMessage.id.desc())
                .limit(CHAT_HISTORY)
            )
        )
        return [chat_row(r, seats.get(r.user_id)) for r in reversed(rows)]
