"""Games played to the end against games left, for a profile: a left game is one whose seat
its owner did not play to the end (they left, or a bot held it at the end), the same mark that
ranks them last (`game_results.quit`) and makes them wait longer in the quick-match pools."""

from __future__ import annotations

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from app.db.models.games import Game
from app.db.models.ratings import GameResult


def finished_and_left(db: Session, user_id: int) -> dict[str, int]:
    """`{"finished": n, "left": m}` over the public finished games the user had a seat in (a
    profile shows public games only)."""
    row = db.execute(
        select(
            func.count(case((GameResult.quit.is_(False), 1))),
            func.count(case((GameResult.quit.is_(True), 1))),
        )
        .join(Game, Game.id == GameResult.game_id)
        .where(GameResult.user_id == user_id, Game.visibility == "public")
    ).one()
    return {"finished": int(row[0] or 0), "left": int(row[1] or 0)}
