"""The live core's storage in SQL: what app/realtime reads and writes, but for moves.

The realtime package owns no SQL: it calls a `LiveStore` (app/realtime/storage.py says what
one must do), whose methods are synchronous and run in worker threads. Moves do not pass here:
they take the play service's one road (app/services/play/road.py) like every other move. Reads
for the rooms are light Core queries: a room reloads only when a change did not reach it in
memory (another instance's move it could not replay, a lobby change, a lost notice), and the
rooms' periodic check reads just versions, statuses and seats.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.db.models.accounts import AuthSession, User
from app.db.models.games import Game, Move, Seat
from app.db.session import read_session
from app.i18n import t_
from app.services.accounts import users
from app.services.tables import chat, clocks, lobby, presence
from app.services.tables.names import display_seat_name
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.snapshots import GameSnap, Mark, MoveInfo, SeatInfo, Viewer
from app.shared.state_cache import states_in, states_of

# Log frames are sent for at most this many moves per reload; older ones come from GET /log.
MAX_LOG_MOVES = 20


class SqlLiveStore:
    """The live core's storage on the app's database (every method runs in a worker thread)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

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
                    AuthSession.token_hash.in_(token_hashes), AuthSession.expires_at > now_in(db)
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
                cache = states_of(db)
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
        states_in(self.sessions).put(game_id, version, state)


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
