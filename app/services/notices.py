"""'Your turn' notices: who gets one, written to the outbox with the move.

A notice is queued in the transaction of the move that starts a person's turn, for an owner who
verified an email address and left notices on; at most one per game and turn (a unique key in
the outbox). Whether it is still worth sending is decided when its time comes (mailer.py): the
turn must still be theirs, a person must still play the seat, and they must have no socket open
on the game (`seats.socket_until`, pushed forward by the socket heartbeat in presence.py).
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Integer, String, bindparam, insert, literal, select, true
from sqlalchemy.orm import Session

from app.db.models import Game, OutboxEmail, Seat, User, UTCDateTime, utcnow


def wants_notices(user: User | None) -> bool:
    """An account with a verified address that left notices on."""
    return (
        user is not None
        and user.notices
        and user.email is not None
        and user.email_verified_at is not None
    )


def enqueue_turn(db: Session, game: Game, seat: int, turn: int, *, freed: bool = False) -> None:
    """Queue a notice for the owner of `seat`, whose turn `turn` starts now (if they want one).

    `freed`: the seat's bot is leaving it in this same transaction (a person plays the turn).
    """
    row = game.seats[seat]
    if row.bot_level is not None and not freed:
        return
    if not wants_notices(row.user):
        return
    assert row.user_id is not None
    db.add(
        OutboxEmail(
            kind="turn",
            user_id=row.user_id,
            game_id=game.id,
            turn=turn,
            dedupe=f"turn:{game.id}:{turn}",
            next_try_at=utcnow(),
        )
    )


def enqueue_turn_by_seat(db: Session, game_id: int, seat: int, turn: int) -> None:
    """`enqueue_turn` in one INSERT ... SELECT, for a move that read no game row (the fast path
    of games._commit): the owner of `seat` gets a notice if a person plays it and they want one.
    """
    now = utcnow()
    db.execute(
        _turn_notice_statement(),
        {"g": game_id, "s": seat, "t": turn, "d": f"turn:{game_id}:{turn}", "now": now},
    )


@lru_cache(maxsize=1)
def _turn_notice_statement() -> Any:
    # Built once: constructing and caching a statement costs more than running it.
    now = bindparam("now", type_=UTCDateTime())
    rows = (
        select(
            literal("turn"),
            Seat.user_id,
            bindparam("g", type_=Integer()),
            bindparam("t", type_=Integer()),
            bindparam("d", type_=String()),
            literal("pending"),
            literal(0),
            now,
            now,
        )
        .join(User, User.id == Seat.user_id)
        .where(
            Seat.game_id == bindparam("g"),
            Seat.seat == bindparam("s"),
            Seat.bot_level.is_(None),
            User.notices.is_(true()),
            User.email.is_not(None),
            User.email_verified_at.is_not(None),
        )
    )
    columns = ["kind", "user_id", "game_id", "turn", "dedupe", "status", "attempts"]
    # The table, not the ORM class: an ORM insert with parameters would be a bulk insert.
    return insert(OutboxEmail.__table__).from_select([*columns, "next_try_at", "created_at"], rows)


def still_due(db: Session, email: OutboxEmail, now: datetime) -> str | None:
    """Why a turn notice is no longer worth sending (None: send it)."""
    game = db.get(Game, email.game_id) if email.game_id is not None else None
    if game is None or game.status != "live" or game.snapshot is None:
        return "the game is not live"
    turn: dict[str, Any] = game.snapshot.get("turn", {})
    if turn.get("number") != email.turn:
        return "the turn is over"
    seat = db.scalar(select(Seat).where(Seat.game_id == game.id, Seat.user_id == email.user_id))
    if seat is None or seat.seat != game.to_act or seat.bot_level is not None:
        return "a bot plays the seat, or it is not theirs to act"
    if seat.socket_until is not None and seat.socket_until > now:
        return "they have the game open"
    if not wants_notices(db.get(User, email.user_id)):
        return "notices are off or the address is not verified"
    return None
