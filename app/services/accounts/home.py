"""A home for one's games: waiting for me first, then the others, then finished."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game, Move, Seat
from app.services.tables import lobby


def waits_for(game: Game, user_id: int) -> bool:
    """The game is live and the user must decide now (a person plays their seat, not a bot)."""
    mine = lobby.seat_of(game, user_id)
    return (
        game.status == "live"
        and mine is not None
        and mine.bot_level is None
        and game.to_act == mine.seat
    )


def waiting_since(db: Session, games: list[Game]) -> dict[int, datetime]:
    """Since when each game has waited for its player to act: its last move, else its start
    (one query for all of them)."""
    if not games:
        return {}
    last = dict(
        db.execute(
            select(Move.game_id, func.max(Move.created_at))
            .where(Move.game_id.in_([g.id for g in games]))
            .group_by(Move.game_id)
        ).all()
    )
    return {g.id: last.get(g.id) or g.started_at or g.created_at for g in games}


def my_home(db: Session, user: User, finished: int) -> dict[str, list[Game]]:
    """The user's games in three groups: waiting for them (the one that has waited longest
    first), the other live ones and then the open ones (newest first), and the last
    `finished` finished ones."""
    rows = lobby.my_games(db, user)
    waiting = [g for g in rows if waits_for(g, user.id)]
    since = waiting_since(db, waiting)
    waiting.sort(key=lambda g: (since[g.id], g.id))
    others = [g for g in rows if g.status in ("open", "live") and g not in waiting]
    others.sort(key=lambda g: (g.status != "live", -g.id))
    done = [g for g in rows if g.status == "finished"][:finished]
    return {"waiting": waiting, "playing": others, "finished": done}


def has_current_games(db: Session, user: User) -> bool:
    """The user has a seat at an open or live table (a returning player)."""
    found = db.scalar(
        select(Seat.id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id == user.id, Game.status.in_(("open", "live")))
        .limit(1)
    )
    return found is not None
