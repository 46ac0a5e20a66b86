"""Rematches: the same players, seats and options (clock included) at a new table.

Anyone seated at a finished game may offer it; the first offer creates the new table (a second
offer, or a concurrent one, finds the same table: `games.rematch_of` is unique). The offerer is
its host in their old seat and it counts among their open tables (the same cap as a new table);
bots keep their seats, levels and names (`games.bot_names_of`), and every other player's seat is
kept empty for them (`seats.reserved_for`) until they accept (they sit down) or decline (the seat
is open to anyone, or to a bot the host adds). When the last reserved seat is accepted the game
starts, within the caps on live games (past them it stays open, full, for the host to start).
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.i18n import t_
from app.services.tables import caps, clocks, lobby
from app.services.tables.lobby import get_game, lock_open_game, seat_of, visible_game
from app.services.tables.names import names_key, seat_name
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.notify import Notifier, notify

BIG = 10**9  # the old clock was checked when its table was made: copy it as it is


def _finished_seat(db: Session, game_id: int, user: User) -> Game:
    game = visible_game(db, game_id, user.id)  # a private game is 404 to strangers
    if seat_of(game, user.id) is None:
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    if game.status != "finished":
        raise ServiceError(
            "not_finished",
            t_("game {game_id} is {status}, not finished", game_id=game_id, status=game.status),
        )
    return game


def rematch_of(db: Session, game_id: int) -> Game | None:
    """The rematch table of `game_id`, if one was offered."""
    new_id = db.scalar(select(Game.id).where(Game.rematch_of == game_id))
    return get_game(db, new_id) if new_id is not None else None


def offer(
    db: Session,
    game_id: int,
    user: User,
    notifier: Notifier | None = None,
    *,
    max_open: int | None = None,
) -> Game:
    """Open the rematch table of a finished game (or return the one already offered).

    `max_open`: the offerer's open tables, as for a new table (`too_many_tables` past it).
    """
    old = _finished_seat(db, game_id, user)
    existing = rematch_of(db, game_id)
    if existing is not None:
        return existing
    if max_open is not None:
        caps.check_open_tables(db, user, max_open)
    new = Game(
        host_id=user.id,
        status="open",
        visibility=old.visibility,
        invite_code=secrets.token_urlsafe(9),
        players=old.players,
        options=dict(old.options),
        version=0,
        clock=clocks.new_clock(
            clocks.summary(old.clock), BIG, None, clocks.DailyRules(0, BIG, 0, BIG)
        ),
        rematch_of=old.id,
        bot_names_of=names_key(old),
        rated=old.rated,  # only accounts sat at a rated table: the same ones are kept seats
    )
    now = now_in(db)
    new.seats = []
    for s in old.seats:
        seat = Seat(seat=s.seat)
        if s.user_id == user.id:
            seat.user_id, seat.joined_at = user.id, now
        elif s.user_id is None:
            seat.bot_level = s.bot_level  # a bot of its own keeps its seat
            seat.joined_at = now if s.bot_level else None
        else:
            seat.reserved_for = s.user_id
        new.seats.append(seat)
    db.add(new)
    try:
        db.commit()
    except IntegrityError:  # someone else offered at the same moment: theirs stands
        db.rollback()
        found = rematch_of(db, game_id)
        if found is None:
            raise
        return found
    notify(notifier, new.id, 0)
    return get_game(db, new.id)


def accept(
    db: Session,
    game_id: int,
    user: User,
    notifier: Notifier | None = None,
    *,
    live_caps: caps.LiveCaps | None = None,
) -> Game:
    """Sit down at the rematch in the seat kept for the caller; the last one starts the game
    (unless `live_caps` refuse it: then it stays open, every seat taken, for the host)."""
    _finished_seat(db, game_id, user)
    new = rematch_of(db, game_id)
    if new is None:
        raise ServiceError(
            "no_rematch", t_("nobody offered a rematch of game {game_id}", game_id=game_id)
        )
    if seat_of(new, user.id) is not None:
        return new
    new = lock_open_game(db, new.id)
    seat = next((s for s in new.seats if s.reserved_for == user.id), None)
    if seat is None:
        db.rollback()
        raise ServiceError("not_invited", "no seat is kept for you at this rematch any more")
    seat.user_id, seat.reserved_for, seat.joined_at = user.id, None, now_in(db)
    db.commit()
    notify(notifier, new.id, new.version)
    new = get_game(db, new.id)
    if all(not s.is_empty for s in new.seats):
        host = db.get(User, new.host_id)
        if host is not None:
            try:
                return lobby.start_game(db, new.id, host, notifier=notifier, live_caps=live_caps)
            except ServiceError as exc:
                if exc.code != "too_many_games":
                    raise
                return get_game(db, new.id)
    return new


def decline(db: Session, game_id: int, user: User, notifier: Notifier | None = None) -> Game:
    """Give up the seat kept for the caller (it becomes an ordinary empty seat)."""
    _finished_seat(db, game_id, user)
    new = rematch_of(db, game_id)
    if new is None:
        raise ServiceError(
            "no_rematch", t_("nobody offered a rematch of game {game_id}", game_id=game_id)
        )
    if new.status != "open":
        return new
    new = lock_open_game(db, new.id)
    for s in new.seats:
        if s.reserved_for == user.id:
            s.reserved_for = None
    db.commit()
    notify(notifier, new.id, new.version)
    return get_game(db, new.id)


def describe(old: Game, new: Game | None) -> dict[str, Any]:
    """The offer as players see it: the new table and each player's answer (None: no offer)."""
    out = []
    for s in old.seats:
        answer: str | None = None
        if new is not None:
            row = new.seats[s.seat]
            if s.user_id is None:
                answer = "bot"
            elif row.user_id == s.user_id:
                answer = "accepted"
            elif row.reserved_for == s.user_id:
                answer = "pending"
            else:
                answer = "declined"
        out.append(
            {
                "seat": s.seat,
                "name": seat_name(names_key(old), s),
                "user_id": s.user_id,
                "answer": answer,
            }
        )
    return {
        "game_id": old.id,
        "rematch_id": new.id if new is not None else None,
        "host_id": new.host_id if new is not None else None,
        "status": new.status if new is not None else None,
        "seats": out,
    }
