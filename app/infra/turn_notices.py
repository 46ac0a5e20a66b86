"""'Your turn' notices: who gets one, written to the outbox with the move.

A notice is queued in the transaction of the move that starts a person's turn, for an owner who
left notices on and has a push device or a verified email address; at most one per game and turn
(a unique key in the outbox). Its channel is chosen here: "push" when they have a push device
(sent through the job queue, app/services/notices/push.py), else "email". Whether it is still
worth sending is decided when its time comes (mailer.py, push.py): the
turn must still be theirs, a person must still play the seat, and they must have no socket open
on the game (`seats.socket_until`, pushed forward by the socket heartbeat in presence.py).
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Integer, String, bindparam, case, exists, insert, literal, or_, select, true
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.base import UTCDateTime
from app.db.models.games import Game, Seat
from app.db.models.notices import OutboxEmail, PushSubscription
from app.shared.clock import now_in


def wants_notices(user: User | None) -> bool:
    """An account with a verified address that left notices on."""
    return (
        user is not None
        and user.notices
        and user.email is not None
        and user.email_verified_at is not None
    )


def has_push(db: Session, user_id: int) -> bool:
    """Whether the user has a push device."""
    return bool(db.scalar(select(_has_push_for(user_id))))


def _has_push_for(user_id: Any) -> Any:
    return exists().where(PushSubscription.user_id == user_id)


def enqueue_turn(db: Session, game: Game, seat: int, turn: int, *, freed: bool = False) -> None:
    """Queue a notice for the owner of `seat`, whose turn `turn` starts now (if they want one).

    `freed`: the seat's bot is leaving it in this same transaction (a person plays the turn).
    """
    row = game.seats[seat]
    if row.bot_level is not None and not freed:
        return
    if row.user is None or not row.user.notices:
        return
    assert row.user_id is not None
    push = has_push(db, row.user_id)
    if not push and not wants_notices(row.user):
        return
    db.add(
        OutboxEmail(
            kind="turn",
            channel="push" if push else "email",
            user_id=row.user_id,
            game_id=game.id,
            turn=turn,
            dedupe=f"turn:{game.id}:{turn}",
            next_try_at=now_in(db),
            created_at=now_in(db),  # the context's clock, as the SQL path's (not the model's)
        )
    )


def enqueue_turn_by_seat(db: Session, game_id: int, seat: int, turn: int) -> None:
    """`enqueue_turn` in one INSERT ... SELECT, for a move that read no game row (the fast path
    of games._commit): the owner of `seat` gets a notice if a person plays it and they want one.
    """
    db.execute(_turn_notice_statement(), turn_notice_params(game_id, seat, turn, now_in(db)))


def turn_notice_params(game_id: int, seat: int, turn: int, now: datetime) -> dict[str, Any]:
    """The parameters of `turn_notice_insert`."""
    return {
        "gid": game_id,
        "n_seat": seat,
        "n_turn": turn,
        "n_dedupe": f"turn:{game_id}:{turn}",
        "n_now": now,
    }


@lru_cache(maxsize=1)
def _turn_notice_statement() -> Any:
    # Built once: constructing and caching a statement costs more than running it.
    return turn_notice_insert()


def turn_notice_insert(game_id: Any = None, moved: Any = None) -> Any:
    """The turn notice's INSERT ... SELECT: a row for the owner of seat `n_seat` if a person
    plays it and wants notices. `game_id`: the game id's expression (default the parameter
    `gid`); `moved`: rows to join (a move's UPDATE ... RETURNING), so that without them no
    notice goes in."""
    now = bindparam("n_now", type_=UTCDateTime())
    if game_id is None:
        game_id = bindparam("gid", type_=Integer())
    push = _has_push_for(Seat.user_id)
    rows = (
        select(
            literal("turn"),
            Seat.user_id,
            game_id,
            bindparam("n_turn", type_=Integer()),
            bindparam("n_dedupe", type_=String()),
            literal("pending"),
            literal(0),
            now,
            now,
            case((push, literal("push")), else_=literal("email")),
        )
        .join(User, User.id == Seat.user_id)
        .where(
            Seat.game_id == bindparam("gid"),
            Seat.seat == bindparam("n_seat"),
            Seat.bot_level.is_(None),
            User.notices.is_(true()),
            or_(push, User.email_verified_at.is_not(None) & User.email.is_not(None)),
        )
    )
    if moved is not None:
        rows = rows.join(moved, true())
    columns = ["kind", "user_id", "game_id", "turn", "dedupe", "status", "attempts"]
    # The table, not the ORM class: an ORM insert with parameters would be a bulk insert.
    return insert(OutboxEmail.__table__).from_select(
        [*columns, "next_try_at", "created_at", "channel"], rows
    )


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
    user = db.get(User, email.user_id)
    if email.channel == "push":
        return None if user is not None and user.notices else "notices are off"
    if not wants_notices(user):
        return "notices are off or the address is not verified"
    return None
