"""What the live core (app/realtime) reads and writes, and its SQL implementation.

The realtime package owns no SQL: it calls a `LiveStore` (app/realtime/storage.py says what
one must do), whose methods are synchronous and run in worker threads, but for `submit_now`,
which writes on the event loop the socket moves that need only their own statement (Postgres).
`SqlLiveStore` is the one the server uses; tests use an in-memory one. Moves go through the
same service functions as the HTTP API (games.submit_action; on the loop games.decide and the
same statement), so both roads check and change games identically. Reads for
the rooms are light Core queries: a room reloads only when a change did not reach it in
memory (another instance's move it could not replay, a lobby change, a lost notice), and the
rooms' periodic check reads just versions, statuses and seats.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.db.models import AuthSession, Game, Move, Seat, User, utcnow
from app.db.session import read_session
from app.i18n import t_
from app.infra.state_cache import cache_for
from app.services.accounts import users
from app.services.play import clocks, games
from app.services.tables import chat, lobby, presence
from app.services.tables.names import display_seat_name
from app.shared.errors import ServiceError
from app.shared.notify import Notifier

if TYPE_CHECKING:
    from app.infra.async_move_write import AsyncMoveWriter
    from app.services.play.games import Committed

# Log frames are sent for at most this many moves per reload; older ones come from GET /log.
MAX_LOG_MOVES = 20


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
        """Nothing a viewer could see has changed."""
        if other is None:
            return False
        return (self.status, self.version, self.seats) == (other.status, other.version, other.seats)

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
        return users.token_hash(self.token) if self.token else None


@dataclass(frozen=True)
class MoveRequest:
    """One socket move, parsed once at the edge: the engine's action value travels as it is."""

    game_id: int
    user_id: int
    version: int
    action: rules.Action
    known: games.Known | None  # the room's copy of the game at `version`, if it holds it
    was_left: bool  # the mover's seat is marked "left": the move ends that, in its transaction


class SqlLiveStore:
    """The live core's storage on the app's database (every method but `submit_now` runs in a
    worker thread)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        notifier: Notifier | None,
        loop_writer: AsyncMoveWriter | None = None,
    ) -> None:
        self.sessions = sessions
        self.notifier = notifier
        # Postgres: writes the socket moves that need only their own statement from the event
        # loop (`submit_now`); None: every move takes `submit` in a worker thread.
        self.loop_writer = loop_writer

    def authorise(self, game_id: int, token: str | None, invite_code: str | None) -> Viewer:
        """Who the session token belongs to, if they may watch `game_id`; raises ServiceError."""
        with read_session(self.sessions) as db:
            user = users.user_for_token(db, token) if token else None
            # Only the columns the rule reads: a socket opens for every spectator, and the
            # whole row (its snapshot) with its seats cost more than the rest of the join.
            row = db.execute(
                select(Game.visibility, Game.invite_code).where(Game.id == game_id)
            ).first()
            if row is None:
                raise ServiceError("not_found", t_("there is no game {game_id}", game_id=game_id))
            seated = user is not None and (
                db.scalar(select(Seat.seat).where(Seat.game_id == game_id, Seat.user_id == user.id))
                is not None
            )
            if not lobby.may_see(row.visibility, row.invite_code, seated, invite_code):
                raise ServiceError("not_found", t_("there is no game {id}", id=game_id))
            return Viewer(user.id, user.display_name, token) if user else Viewer(None, None)

    def check_session(self, viewer: Viewer) -> None:
        """Raise `not_signed_in` unless the viewer's session is still valid for the same user."""
        with read_session(self.sessions) as db:
            user = users.user_for_token(db, viewer.token) if viewer.token else None
        if user is None or user.id != viewer.user_id:
            raise ServiceError("not_signed_in", "your session has ended; sign in again to play")

    def live_sessions(self, token_hashes: list[str]) -> set[str]:
        """Which of these sessions still exist and have not expired (one query)."""
        if not token_hashes:
            return set()
        with read_session(self.sessions) as db:
            rows = db.scalars(
                select(AuthSession.token_hash).where(
                    AuthSession.token_hash.in_(token_hashes), AuthSession.expires_at > utcnow()
                )
            )
            return set(rows)

    def load_game(self, game_id: int, since: int | None) -> GameSnap:
        """The game now, with the moves after version `since` (none when `since` is None).

        Light reads (no ORM objects): the snapshot column is fetched only when this process's
        state cache does not already hold the state at the game's version.
        """
        with read_session(self.sessions) as db:
            row = db.execute(
                select(Game.status, Game.version, Game.to_act, Game.clock, Game.bot_names_of).where(
                    Game.id == game_id
                )
            ).first()
            if row is None:
                raise ServiceError("not_found", t_("there is no game {game_id}", game_id=game_id))
            seats = _seats(db, game_id, row.bot_names_of or game_id)
            state = None
            if row.status in ("live", "finished"):
                cache = cache_for(db.get_bind())  # type: ignore[arg-type]
                state = cache.get(game_id, row.version)
                if state is None:
                    snapshot = db.scalar(
                        select(Game.snapshot).where(Game.id == game_id, Game.version == row.version)
                    )
                    if snapshot is None:  # moved on between the two reads: read it all again
                        return self.load_game(game_id, since)
                    state = rules.state_from_json(snapshot)
                    cache.put(game_id, row.version, state)
            moves: list[MoveInfo] = []
            if since is not None and row.version > since and state is not None:
                first = max(since, row.version - MAX_LOG_MOVES)
                query = (
                    select(Move.seq, Move.seat, Move.events, Move.timeout, Move.created_at)
                    .add_columns(Move.action)
                    .where(Move.game_id == game_id, Move.seq > first, Move.seq <= row.version)
                    .order_by(Move.seq)
                )
                moves = [
                    MoveInfo(
                        m.seq,
                        m.seat,
                        seats[m.seat].name,
                        m.events,
                        m.timeout,
                        m.created_at.isoformat(),
                        m.action,
                    )
                    for m in db.execute(query)
                ]
            clock = clocks.public(row.clock)  # the same for every viewer
            return GameSnap(
                game_id, row.status, row.version, row.to_act, seats, state, moves, clock
            )

    def current_marks(self, game_ids: list[int]) -> dict[int, Mark]:
        """Version, status and seats of many games in two small queries (the rooms' safety net)."""
        if not game_ids:
            return {}
        with read_session(self.sessions) as db:
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

    def submit(self, request: MoveRequest) -> Committed:
        """Commit a socket's move (one transaction, the presence mark in it); raises
        ServiceError. The committed move says it came from a socket: the hub leaves its fan-out
        to the socket's handler, which sends the mover's ack right behind its patch."""
        with self.sessions() as db:
            return games.submit_action(
                db,
                request.game_id,
                request.user_id,
                request.version,
                request.action,
                notifier=self.notifier,
                known=request.known,
                back=request.was_left,
                origin=games.SOCKET,
            )

    async def submit_now(self, request: MoveRequest) -> Committed | None:
        """A socket's move decided and written without leaving the event loop, when all it
        writes is its own statement (`games.writes_alone`: a state known at the version, no
        turn clock, no "left" mark, no finish); None when it must take `submit` in a worker
        thread instead, which also says why the database refused a move. Raises ServiceError
        for an illegal action (nothing written), and SQLAlchemy's errors as `submit` does."""
        writer, known = self.loop_writer, request.known
        if writer is None or known is None or known.clocked or request.was_left:
            return None
        began = time.perf_counter()
        decision = games.decide(known.state, request.action, known.seat, request.version)
        if not games.writes_alone(decision, known.clocked, request.was_left):
            return None
        row = games.move_row(
            request.game_id, known.seat, request.version, request.user_id, known.state, decision
        )
        try:
            moved = await writer.write(row)
        except IntegrityError:  # the unique (game_id, seq): another move took this version
            raise games.stale(request.game_id, request.version) from None
        if not moved:
            return None
        return games.committed_move(
            writer.engine,
            request.game_id,
            known.seat,
            decision,
            row,
            known.bots,
            clocks.public(None),
            self.notifier,
            began,
            games.SOCKET,
        )

    async def close(self) -> None:
        """Close the loop writer's connections (at shutdown)."""
        if self.loop_writer is not None:
            await self.loop_writer.close()

    def say(self, game_id: int, viewer: Viewer, text: str, seat: int | None) -> dict[str, Any]:
        """Store a chat line; the line as clients receive it."""
        with self.sessions() as db:
            return chat.say(db, game_id, viewer.user_id, viewer.name, text, seat)

    def chat_since(self, game_id: int, seats: dict[int, int], after: int = 0) -> list[dict]:
        """A game's recent chat lines after id `after`, oldest first (`seats`: user -> seat)."""
        with read_session(self.sessions) as db:
            return chat.recent(db, game_id, seats, after)

    def mark_seen_many(self, seen: dict[int, list[int]], socket_ttl_s: float | None = None) -> None:
        """Mark these seated users present (game id -> user ids) in one transaction; with
        `socket_ttl_s`, as having a socket open on the game for that long."""
        with self.sessions() as db:
            for game_id, user_ids in seen.items():
                presence.mark_many_seen(db, game_id, user_ids, socket_ttl_s)
            db.commit()

    def socket_closed(self, game_id: int, user_id: int) -> None:
        """A user's last socket on a game closed here (seen now; no open socket)."""
        with self.sessions() as db:
            presence.socket_closed(db, game_id, user_id)
            db.commit()

    def cache_state(self, game_id: int, version: int, state: Any) -> None:
        """Keep a state this process computed (a replayed move) for its HTTP requests too."""
        cache_for(self.sessions.kw["bind"]).put(game_id, version, state)


def _seats(db: Session, game_id: int, names_key: int) -> tuple[SeatInfo, ...]:
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
            display_seat_name(names_key, r.seat, r.display_name, r.bot_level),
            r.left_at is not None,
        )
        for r in rows
    )
