"""A home for one's games: waiting for me first, then the others, then finished."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.db.models import Game, User
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


def my_home(db: Session, user: User, finished: int) -> dict[str, list[Game]]:
    """The user's games in three groups: waiting for them (the soonest deadline first), the
    other open and live ones (newest first), and the last `finished` finished ones."""
    rows = lobby.my_games(db, user)
    waiting = [g for g in rows if waits_for(g, user.id)]
    waiting.sort(key=lambda g: (g.due_at is None, g.due_at.timestamp() if g.due_at else 0, -g.id))
    others = [g for g in rows if g.status in ("open", "live") and g not in waiting]
    done = [g for g in rows if g.status == "finished"][:finished]
    return {"waiting": waiting, "playing": others, "finished": done}
