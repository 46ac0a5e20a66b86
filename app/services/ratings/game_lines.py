"""Finished games as lines: a game's seats, names and the caller's result, as profiles and
one's own history show them (public facts only, R-60)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.db.models.ratings import GameResult
from app.services.ratings import model as rm
from app.services.tables.names import bot_name, display_seat_name

RESULT_COLUMNS = tuple(GameResult.__table__.c)  # rows, not ORM objects: reads stay cheap


def seats_query(where: Any) -> Any:
    """Every seat of some games with its name, profile username and result (the seat's columns
    as `s_*`, the result's as they are: None while a game's results are not recorded yet)."""
    return (
        select(
            Seat.game_id.label("s_game_id"),
            Seat.seat.label("s_seat"),
            Seat.user_id.label("s_user_id"),
            Seat.bot_level.label("s_bot_level"),
            User.display_name,
            User.username,
            Game.bot_names_of,
            *RESULT_COLUMNS,
        )
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(User, User.id == Seat.user_id)
        .outerjoin(
            GameResult, and_(GameResult.game_id == Seat.game_id, GameResult.seat == Seat.seat)
        )
        .where(where)
        .order_by(Seat.game_id, Seat.seat)
    )


def seat_line(r: Any) -> dict[str, Any]:
    key = r.bot_names_of or r.s_game_id
    return {
        "seat": r.s_seat,
        "name": display_seat_name(key, r.s_seat, r.display_name, r.s_bot_level),
        # A bot's own name on its own seat, so a page words its level in its reader's language.
        "bot_name": bot_name(key, r.s_seat) if r.s_bot_level and r.display_name is None else None,
        "username": r.username,
        "bot_level": r.s_bot_level if r.s_user_id is None else None,
        "place": r.place,
        "total": r.total,
        "quit": bool(r.quit),
    }


def names_of(db: Session, game_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Per game: every seat's name, profile username and result, by seat (one query; a game
    whose results are not recorded yet has its seats without places)."""
    if not game_ids:
        return {}
    out: dict[int, list[dict[str, Any]]] = {gid: [] for gid in game_ids}
    for r in db.execute(seats_query(Seat.game_id.in_(game_ids))):
        out[r.s_game_id].append(seat_line(r))
    return out


def rating_change(r: Any) -> int | None:
    if r.mu_before is None or r.sigma_before is None or r.display_after is None:
        return None
    return r.display_after - rm.display(r.mu_before, r.sigma_before)


def game_line(r: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game_id": r.game_id,
        "finished_at": r.finished_at.isoformat(),
        "variant": r.variant,
        "players": r.players,
        "rated": r.rated,
        "seat": r.seat,
        "place": r.place,
        "total": r.total,
        "quit": r.quit,
        "rating_after": r.display_after,
        "rating_change": rating_change(r),
        "seats": seats,
        "replay": f"/games/{r.game_id}/replay",
    }


def result_seat_line(r: Any) -> dict[str, Any]:
    """A `RecentRow` as a game's seat line (as `seat_line`: a seat's owner is its result's
    account, and a result names its bot only on a bot's own seat)."""
    return {
        "seat": r.seat,
        "name": display_seat_name(r.bot_names_of or r.game_id, r.seat, r.display_name, r.bot_level),
        "bot_name": bot_name(r.bot_names_of or r.game_id, r.seat)
        if r.bot_level and r.display_name is None
        else None,
        "username": r.username,
        "bot_level": r.bot_level,
        "place": r.place,
        "total": r.total,
        "quit": bool(r.quit),
    }


def games_of(rows: Sequence[Any], user_id: int) -> list[dict[str, Any]]:
    """`RecentRow`s (every seat of some games, in game and seat order) as the games' lines of
    `user_id`'s results, newest first."""
    seats: dict[int, list[dict[str, Any]]] = {}
    mine = []
    for r in rows:
        seats.setdefault(r.game_id, []).append(result_seat_line(r))
        if r.user_id == user_id:
            mine.append(r)
    mine.sort(key=lambda r: -r.id)
    return [game_line(r, seats[r.game_id]) for r in mine]


# Head-to-head apart from the profile (SQLite), built once: the record of `:user_id` against
# `:other_id` over public games, and every seat of their newest `:recent` games together.
