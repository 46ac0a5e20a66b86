"""Bots in seats: fill an empty seat before the start, stand in for a player, give the seat back.

A seat row keeps its human owner (`user_id`) while a bot plays it (`bot_level`), so the owner can
take it back; a pure bot seat has no owner. Lock order, to stay deadlock-free on Postgres: a
seat row before its game row (the bot runner's `claim_bot_turn` then `submit_seat_action`).
"""

from __future__ import annotations

import copy
import math
from datetime import datetime

from sqlalchemy import and_, exists, select, update
from sqlalchemy.orm import Session

from app.bots import LEVELS
from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.i18n import t_
from app.services.tables import lobby
from app.services.tables.lobby import get_game, lock_open_game, seat_of, visible_game
from app.services.tables.presence import away_for, mark_seen
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.notify import Notifier, notify

DEFAULT_GRACE_S = 60.0


def check_level(level: str) -> str:
    """The level if it is one of `app.bots.LEVELS`; `unknown_bot_level` otherwise."""
    if level not in LEVELS:
        shown = level[:32]
        raise ServiceError(
            "unknown_bot_level",
            t_(
                "no bot level {shown}: choose one of {levels}",
                shown=repr(shown),
                levels=", ".join(LEVELS),
            ),
        )
    return level


def _seat_no(game: Game, seat: int) -> Seat:
    if not 0 <= seat < len(game.seats):
        raise ServiceError(
            "no_such_seat",
            t_("game {id} has seats 0 to {seats}", id=game.id, seats=len(game.seats) - 1),
        )
    return game.seats[seat]


def _live(game: Game) -> None:
    if game.status == "open":
        raise ServiceError("not_started", t_("game {id} has not started", id=game.id))
    if game.status != "live":
        raise ServiceError("game_over", t_("game {id} is {status}", id=game.id, status=game.status))


# --- before the start ------------------------------------------------------------------------


def add_bot(
    db: Session, game_id: int, host: User, level: str, notifier: Notifier | None = None
) -> Game:
    """Seat a bot in the lowest empty seat of an open table (host only)."""
    game = visible_game(db, game_id, host.id)
    level = check_level(level)
    if game.host_id != host.id:
        raise ServiceError("not_host", "only the host can add bots")
    game = lock_open_game(db, game_id)
    if game.host_id != host.id:  # the host left meanwhile
        db.rollback()
        raise ServiceError("not_host", "only the host can add bots")
    free = next((s for s in game.seats if s.is_free_for(None)), None)  # not a rematch's kept seat
    if free is None:
        db.rollback()
        raise ServiceError(
            "game_full", t_("every seat of game {game_id} is taken", game_id=game_id)
        )
    free.bot_level = level
    free.joined_at = now_in(db)
    db.commit()
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def remove_bot(
    db: Session, game_id: int, host: User, seat: int, notifier: Notifier | None = None
) -> Game:
    """Empty a bot seat of an open table again (host only)."""
    game = visible_game(db, game_id, host.id)
    if game.host_id != host.id:
        raise ServiceError("not_host", "only the host can remove bots")
    _seat_no(game, seat)
    game = lock_open_game(db, game_id)
    row = game.seats[seat]
    if game.host_id != host.id:
        db.rollback()
        raise ServiceError("not_host", "only the host can remove bots")
    if row.bot_level is None or row.user_id is not None:
        db.rollback()
        raise ServiceError(
            "not_a_bot",
            t_("seat {seat} of game {game_id} holds no bot", seat=seat, game_id=game_id),
        )
    row.bot_level = None
    row.joined_at = None
    db.commit()
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


# --- live games: leaving, standing in, taking the seat back ----------------------------------


def leave_game(db: Session, game_id: int, user: User, notifier: Notifier | None = None) -> Game:
    """Leave a table: an open one as in the lobby; a live one keeps the seat, marked as left.

    A left seat waits for its owner (who may reclaim it) or for the host to hand it to a bot.
    A leaving host passes the host role to a player still at the table, so someone can do that.
    """
    game = visible_game(db, game_id, user.id)
    if game.status != "live":
        return lobby.leave_game(db, game_id, user, notifier=notifier)
    seat = seat_of(game, user.id)
    if seat is None:
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    if seat.left_at is None:
        seat.left_at = now_in(db)
        db.flush()  # the seat row first: the lock order of this module (see the top)
    if game.host_id == user.id:
        others = [
            s
            for s in game.seats
            if s.user_id not in (None, user.id) and s.left_at is None and s.bot_level is None
        ]
        if others:
            game.host_id = others[0].user_id  # type: ignore[assignment]
    db.commit()
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def _may_manage(game: Game, user: User, now: datetime, grace_s: float) -> bool:
    """The host, or any present player while the host is away (so a table never gets stuck)."""
    if game.host_id == user.id:
        return True
    mine = seat_of(game, user.id)
    if mine is None or mine.left_at is not None or mine.bot_level is not None:
        return False
    host_seat = seat_of(game, game.host_id)
    return (
        host_seat is None
        or host_seat.left_at is not None
        or host_seat.bot_level is not None
        or away_for(game, host_seat, now) > grace_s
    )


def replace_with_bot(
    db: Session,
    game_id: int,
    caller: User,
    seat: int,
    level: str,
    *,
    grace_s: float = DEFAULT_GRACE_S,
    notifier: Notifier | None = None,
) -> Game:
    """Let a bot play `seat` of a live game: the owner's own choice, or the host's once the
    owner left or has been unseen for more than `grace_s` seconds."""
    game = visible_game(db, game_id, caller.id)
    level = check_level(level)
    row = _seat_no(game, seat)
    _live(game)
    if row.bot_level is not None:
        raise ServiceError("seat_has_bot", t_("a bot already plays seat {seat}", seat=seat))
    now = now_in(db)
    if row.user_id != caller.id:
        if not _may_manage(game, caller, now, grace_s):
            raise ServiceError("not_host", "only the host can hand another player's seat to a bot")
        away = away_for(game, row, now)
        if row.left_at is None and away <= grace_s:
            wait = max(1, math.ceil(grace_s - away))
            raise ServiceError(
                "player_present",
                t_(
                    "the player in seat {seat} is still here (seen {away} s ago); a seat can be"
                    " handed to a bot after {grace_s} s away, in {wait} s",
                    seat=seat,
                    away=int(away),
                    grace_s=int(grace_s),
                    wait=wait,
                ),
            )
    _set_bot(db, game, row, level, expect_bot=False)
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def hand_seat_to_bot(
    db: Session, game_id: int, user: User, level: str, notifier: Notifier | None = None
) -> Game:
    """Let a bot play the caller's own seat of a live game (theirs to take back)."""
    seat = seat_of(visible_game(db, game_id, user.id), user.id)
    if seat is None:
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    return replace_with_bot(db, game_id, user, seat.seat, level, notifier=notifier)


def take_seat_back(db: Session, game_id: int, user: User, notifier: Notifier | None = None) -> Game:
    """The owner plays their seat again from the next decision on (and is no longer "left").

    During a turn whose clock ran out the bot finishes that turn, which has no time
    left to give, and the seat comes back when it ends (as after a first timeout).
    """
    for _ in range(3):  # a turn that ends meanwhile is looked at again
        game = visible_game(db, game_id, user.id)
        seat = seat_of(game, user.id)
        if seat is None:
            raise ServiceError(
                "not_seated", t_("you have no seat in game {game_id}", game_id=game_id)
            )
        if seat.bot_level is None or not _timed_out_turn(game, seat.seat):
            break
        _live(game)
        if _release_at_turn_end(db, game, seat):
            notify(notifier, game_id, game.version)
            return get_game(db, game_id)
    if seat.bot_level is not None:
        _live(game)
        _set_bot(db, game, seat, None, expect_bot=True)
    elif seat.left_at is not None and game.status == "live":
        seat.left_at = None
        db.commit()
    else:
        return game  # already playing it: nothing to do
    mark_seen(db, game_id, user.id, min_interval_s=0)
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def _timed_out_turn(game: Game, seat: int) -> bool:
    """Whether `seat` is to act in a turn whose clock ran out (a bot plays it)."""
    c = game.clock
    auto = c.get("autoplay") if c else None
    return auto is not None and auto["seat"] == seat == c.get("seat") and auto["turn"] == c["turn"]


def _release_at_turn_end(db: Session, game: Game, seat: Seat) -> bool:
    """Mark the timed-out turn's bot to give the seat back when the turn ends; False if the game
    moved on meanwhile (the caller looks again). Conditional on the version: a move's clock is
    never overwritten."""
    clock = copy.deepcopy(game.clock)
    assert clock is not None
    clock["autoplay"]["keep"] = False
    moved = db.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version, Game.status == "live")
        .values(clock=clock)
        .execution_options(synchronize_session=False)
    )
    if moved.rowcount != 1:
        db.rollback()
        return False
    db.execute(
        update(Seat)
        .where(Seat.id == seat.id)
        .values(left_at=None)
        .execution_options(synchronize_session=False)
    )
    db.commit()
    return True


def reclaim_seat(
    db: Session, game_id: int, user: User, seat: int, notifier: Notifier | None = None
) -> Game:
    """`take_seat_back` for an explicit seat number, which must be the caller's."""
    game = visible_game(db, game_id, user.id)
    row = _seat_no(game, seat)
    if row.user_id != user.id:
        raise ServiceError(
            "not_your_seat",
            t_("seat {seat} of game {game_id} is not yours", seat=seat, game_id=game_id),
        )
    return take_seat_back(db, game_id, user, notifier=notifier)


def _set_bot(db: Session, game: Game, seat: Seat, level: str | None, *, expect_bot: bool) -> None:
    # Conditional on the game still being live (a finished game's seats stay as they were) and
    # on the seat being as we saw it, so a racing reclaim and replace cannot both win.
    held = Seat.bot_level.is_not(None) if expect_bot else Seat.bot_level.is_(None)
    values: dict[str, object] = {"bot_level": level}
    if level is None:
        values["left_at"] = None
    result = db.execute(
        update(Seat)
        .where(
            Seat.id == seat.id,
            held,
            exists(select(Game.id).where(Game.id == Seat.game_id, Game.status == "live")),
        )
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.rollback()
        fresh = get_game(db, game.id)
        _live(fresh)
        code = "seat_has_bot" if not expect_bot else "not_a_bot"
        raise ServiceError(
            code, t_("seat {seat} of game {id} changed meanwhile", seat=seat.seat, id=game.id)
        )
    db.commit()


# --- for the bot runner ----------------------------------------------------------------------


def bot_seats_to_act(db: Session, game_id: int) -> tuple[int, int, str] | None:
    """(seat, version, level) when a bot must decide now in `game_id`, else None (bot runners)."""
    game = get_game(db, game_id)
    if game.status != "live" or game.to_act is None:
        return None
    seat = next(s for s in game.seats if s.seat == game.to_act)
    if seat.bot_level is None:
        return None
    return seat.seat, game.version, seat.bot_level


def bot_games_to_act(db: Session, limit: int = 1000) -> list[int]:
    """Ids of live games whose seat to act is played by a bot (resumed at startup and sweeps)."""
    return list(
        db.scalars(
            select(Game.id)
            .join(Seat, and_(Seat.game_id == Game.id, Seat.seat == Game.to_act))
            .where(Game.status == "live", Seat.bot_level.is_not(None))
            .order_by(Game.id)
            .limit(limit)
        )
    )


def claim_bot_turn(db: Session, game_id: int, seat: int) -> bool:
    """Lock `seat` for a bot's move if a bot still holds it; the caller then submits and commits.

    The no-op UPDATE takes the seat's row lock (Postgres) or the write lock (SQLite) until the
    commit, so a reclaim cannot slip between this check and the bot's move. False: rolled back.
    """
    result = db.execute(
        update(Seat)
        .where(Seat.game_id == game_id, Seat.seat == seat, Seat.bot_level.is_not(None))
        .values(bot_level=Seat.bot_level)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.rollback()
        return False
    return True
