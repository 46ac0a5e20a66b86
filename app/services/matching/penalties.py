"""Leaving costs something: a player who left games lately waits longer in the pools.

A left game is a finished game whose seat its owner did not play to the end (left it, or a bot
held it at the end, a timed-out daily seat included): `game_results.quit`, the mark that also
ranks them last. Rated or not: leaving a casual table costs its other players as much.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models.ratings import GameResult


@dataclass(frozen=True)
class QuitRule:
    """`quits` left games within `window_hours` start the delay of `delay_seconds`, once more
    per further left game, at most `max_seconds`."""

    quits: int
    window_hours: float
    delay_seconds: float
    max_seconds: float

    def delay(self, left: int) -> float:
        """The wait before matching for a player who left `left` games in the window."""
        if left < self.quits:
            return 0.0
        return min(self.max_seconds, self.delay_seconds * (left - self.quits + 1))


def left_since(db: Session, user_id: int, since: datetime) -> int:
    """Finished games since `since` whose seat `user_id` did not play to the end."""
    count = db.scalar(
        select(func.count(GameResult.id)).where(
            GameResult.user_id == user_id,
            GameResult.quit.is_(True),
            GameResult.finished_at >= since,
        )
    )
    return int(count or 0)


def delay_for(db: Session, user_id: int, now: datetime, rule: QuitRule) -> float:
    """How long `user_id` waits before anyone is matched with them, from `now`."""
    since = now - timedelta(hours=rule.window_hours)
    return rule.delay(left_since(db, user_id, since))
