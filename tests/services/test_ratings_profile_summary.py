"""The profile's kept sums (app/services/ratings/summaries.py), on SQLite and Postgres.

The profile reads its statistics from sums the results job keeps; these tests pin that the
documents are exactly those the per-read queries over every seat gave (the fixture was written
by that code on the same seeded history), and that the kept sums equal a computation from
scratch, after the job, after `ratings recompute`, and after the migration's fill.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.migrate import alembic_config
from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.models.ratings import GameResult, ProfileSummary
from app.infra import jobs
from app.services.ratings import profiles
from app.services.ratings import results as ratings
from app.services.ratings import summaries as profile_summaries
from app.services.reviews.job_handlers import job_handlers
from app.services.tables import lobby
from app.settings import Settings
from tests.services.rating_history import ACCOUNTS, seed_history

# Written by the profile code that summed every seat per read (before the kept sums), from
# `seed_history(sessions)` with the settings below; the same on SQLite and Postgres.
DOCUMENTS = Path(__file__).parent / "profile_documents.json"
SETTINGS = Settings(rating_provisional_sigma=7.0, profile_recent_games=5, profile_history_points=8)


def _kept(db: Session) -> dict[tuple[Any, ...], tuple[int, ...]]:
    db.expire_all()
    return {
        tuple(getattr(r, c) for c in profile_summaries.KEY): tuple(
            int(getattr(r, c)) for c in profile_summaries.SUMS
        )
        for r in db.scalars(select(ProfileSummary))
    }


def _from_scratch(db: Session) -> dict[tuple[Any, ...], tuple[int, ...]]:
    n = len(profile_summaries.KEY)
    return {
        tuple(row[:n]): tuple(int(v) for v in row[n:])
        for row in db.execute(profile_summaries.from_results())
    }


def test_profiles_are_the_documents_the_per_read_sums_gave(
    sessions: sessionmaker[Session], db: Session
) -> None:
    seed_history(sessions)
    expected = json.loads(DOCUMENTS.read_text())
    for name in ACCOUNTS:
        shown = profiles.profile(db, name, SETTINGS)
        # Played to the end against left came after the documents: checked against the seats.
        kept = shown.pop("commitment")
        assert shown == expected[name], name
        seats = (
            db.execute(
                select(GameResult.quit)
                .join(Game, Game.id == GameResult.game_id)
                .join(User, User.id == GameResult.user_id)
                .where(Game.visibility == "public", User.username == name)
            )
            .scalars()
            .all()
        )
        assert kept == {"finished": seats.count(False), "left": seats.count(True)}, name
    with_vs = profiles.profile(db, "ann", SETTINGS, vs="bob")
    with_vs.pop("commitment")
    assert with_vs == expected["ann_vs_bob"]


def test_the_kept_sums_equal_the_sums_from_scratch(
    sessions: sessionmaker[Session], db: Session
) -> None:
    seed_history(sessions)
    kept = _kept(db)
    assert kept == _from_scratch(db)
    # The history has what the sums must tell apart: both variants, several player counts,
    # wins, expansion tails, and private games left out.
    assert {variant for _, variant, _ in kept} == {"base", "expansion"}
    assert sum(v[1] for v in kept.values()) > 0
    assert db.scalar(select(Game.id).where(Game.visibility == "private").limit(1)) is not None
    public_seats = db.execute(
        select(GameResult.id)
        .join(Game, Game.id == GameResult.game_id)
        .where(Game.visibility == "public", GameResult.user_id.is_not(None))
    ).all()
    assert sum(v[0] for v in kept.values()) == len(public_seats)


def test_recompute_rebuilds_the_sums(sessions: sessionmaker[Session], db: Session) -> None:
    seed_history(sessions, games=25)
    before = _kept(db)
    db.query(ProfileSummary).update({"played": 99, "own_gold": 0})
    db.query(ProfileSummary).filter(ProfileSummary.players == 2).delete()
    db.commit()
    assert _kept(db) != before
    out = ratings.recompute(db)
    assert out["profile_summaries"] == len(before)
    assert _kept(db) == before


def test_a_game_is_added_once_however_often_its_job_runs(
    sessions: sessionmaker[Session], db: Session
) -> None:
    seed_history(sessions, games=10)
    before = _kept(db)
    game_id = db.scalar(select(Game.id).where(Game.visibility == "public").limit(1))
    assert game_id is not None
    # The job again (a second instance, a retried lease): nothing more is added.
    assert ratings.record_results(db, game_id) is False
    db.commit()
    jobs.enqueue(db, ratings.KIND, f"game:{game_id}", {"game_id": game_id})
    db.commit()
    jobs.JobRunner(sessions, job_handlers()).run_due()
    assert _kept(db) == before


def test_a_finished_game_adds_its_seats_through_the_job(
    sessions: sessionmaker[Session], db: Session
) -> None:
    from tests.services.test_ratings import _play, _rated_game

    seed_history(sessions, games=5)
    ann, bob = (profiles.account(db, n) for n in ("ann", "bob"))
    before = _kept(db)
    game = _play(db, _rated_game(db, [ann, bob], ("random",)).id)
    assert lobby.get_game(db, game.id).status == "finished"
    assert _kept(db) == before  # not yet: the job records it
    jobs.JobRunner(sessions, job_handlers()).run_due()
    after = _kept(db)
    assert after == _from_scratch(db)
    assert sum(v[0] for v in after.values()) == sum(v[0] for v in before.values()) + 2


def test_the_migration_fills_the_sums_from_stored_results(
    sessions: sessionmaker[Session], db: Session, database_url: str
) -> None:
    seed_history(sessions, games=25)
    expected = _kept(db)
    db.close()
    cfg = alembic_config(database_url)
    before_sums = ScriptDirectory.from_config(cfg).get_revision("0010_profile_summary")
    assert isinstance(before_sums.down_revision, str)
    command.downgrade(cfg, before_sums.down_revision)  # from before the sums, with results
    command.upgrade(cfg, "head")
    with sessions() as fresh:
        assert _kept(fresh) == expected
