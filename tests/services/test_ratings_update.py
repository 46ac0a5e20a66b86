"""The rating update writes rows beside the ORM: a session that already holds an account's
rating object sees the new rating after the update, not the one it had loaded (sessions keep
objects across commits)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.ratings import GameResult, Rating
from app.services.ratings import results as ratings
from tests.services.rating_history import seed_history
from tests.services.test_ratings import _play, _rated_game


def test_a_held_rating_object_shows_the_update(
    sessions: sessionmaker[Session], db: Session
) -> None:
    seed_history(sessions, games=5)
    ann, bob = (db.scalar(select(User).where(User.username == n)) for n in ("ann", "bob"))
    assert ann is not None and bob is not None
    game = _play(db, _rated_game(db, [ann, bob]).id)
    held = db.get(Rating, (ann.id, "base"))  # loaded before the update, in this session
    assert held is not None
    games_before = held.games
    assert ratings.record_results(db, game.id) is True
    db.commit()
    mine = db.scalar(
        select(GameResult).where(GameResult.game_id == game.id, GameResult.user_id == ann.id)
    )
    assert mine is not None and mine.mu_after is not None
    now = db.get(Rating, (ann.id, "base"))
    assert now is held  # the same object, refreshed
    assert (now.mu, now.sigma, now.display, now.games) == (
        mine.mu_after,
        mine.sigma_after,
        mine.display_after,
        games_before + 1,
    )
    assert ratings.skill_of(db, ann.id, "base") == ratings.rm.Skill(mine.mu_after, mine.sigma_after)
