"""Bots in seats: fill an empty seat before the start, stand in for a player, give the seat back."""

from __future__ import annotations

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from app.db.models import Game, Seat, User, utcnow
from app.services.errors import ServiceError
from app.services.lobby import get_game, lock_open_game, seat_of
from app.services.notify import Notifier, notify

MAX_LEVEL_LENGTH = 32


def _check_level(level: str) -> str:
    level = level.strip()
    if not level or len(level) > MAX_LEVEL_LENGTH or not level.replace("-", "").isalnum():
        raise ServiceError("invalid_request", "a bot level is 1 to 32 letters, digits or -")
    return level


def add_bot(
    db: Session, game_id: int, host: User, level: str, notifier: Notifier | None = None
) -> Game:
    """Seat a bot in the lowest empty seat of an open table (host only)."""
    level = _check_level(level)
    game = get_game(db, game_id)
    if game.host_id != host.id:
        raise ServiceError("not_host", "only the host can add bots")
    game = lock_open_game(db, game_id)
    free = next((s for s in game.seats if s.is_empty), None)
    if free is None:
        db.rollback()
        raise ServiceError("game_full", f"every seat of game {game_id} is taken")
    free.bot_level = level
    free.joined_at = utcnow()
    db.commit()
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def _set_bot(db: Session, game: Game, seat: Seat, level: str | None) -> None:
    # Conditional on the game still being live so a finished game's seats stay as they were.
    result = db.execute(
        update(Seat)
        .where(
            Seat.id == seat.id,
            exists(select(Game.id).where(Game.id == Seat.game_id, Game.status == "live")),
        )
        .values(bot_level=level)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.rollback()
        raise ServiceError("game_over", f"game {game.id} is {game.status}")
    db.commit()


def hand_seat_to_bot(
    db: Session, game_id: int, user: User, level: str, notifier: Notifier | None = None
) -> Game:
    """Let a bot play the caller's seat of a live game (the seat stays theirs to take back)."""
    level = _check_level(level)
    game = get_game(db, game_id)
    seat = seat_of(game, user.id)
    if seat is None:
        raise ServiceError("not_seated", f"you have no seat in game {game_id}")
    if game.status != "live":
        raise ServiceError("not_started" if game.status == "open" else "game_over", game.status)
    _set_bot(db, game, seat, level)
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def take_seat_back(db: Session, game_id: int, user: User, notifier: Notifier | None = None) -> Game:
    """The owner of a bot-played seat plays it again from the next decision on."""
    game = get_game(db, game_id)
    seat = seat_of(game, user.id)
    if seat is None:
        raise ServiceError("not_seated", f"you have no seat in game {game_id}")
    if seat.bot_level is not None:
        if game.status != "live":
            raise ServiceError("game_over", f"game {game_id} is {game.status}")
        _set_bot(db, game, seat, None)
        notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def bot_seats_to_act(db: Session, game_id: int) -> tuple[int, int, str] | None:
    """(seat, version, level) when a bot must decide now in `game_id`, else None (bot runners)."""
    game = get_game(db, game_id)
    if game.status != "live" or game.to_act is None:
        return None
    seat = next(s for s in game.seats if s.seat == game.to_act)
    if seat.bot_level is None:
        return None
    return seat.seat, game.version, seat.bot_level
