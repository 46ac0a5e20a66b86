"""How a profile is read: one statement on Postgres, four elsewhere, the same documents.

The one statement returns each part as JSON, so these tests pin what JSON could change: times
with fractions of a second (Postgres prints as few digits as it needs), floats (a rating change
is computed from the rating before), private games, guests, bots and quitters (the seeded
history has them all), and head-to-head. And that nothing is kept between reads: a rename or
another player's game shows in the next read.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.ratings import GameResult, Rating
from app.services.ratings import profiles
from app.settings import Settings
from app.shared.errors import ServiceError
from tests.services.rating_history import ACCOUNTS, seed_history

SETTINGS = Settings(rating_provisional_sigma=7.0, profile_recent_games=5, profile_history_points=8)


def _odd_times(db: Session) -> None:
    """Give every result a time with a fraction of a second: some with trailing zeros (.12),
    some with all six digits."""
    for r in db.scalars(select(GameResult)):
        micro = r.id * 120_000 % 1_000_000 + r.id % 2  # even ids: .12, .24, ...; odd: .120001, ...
        r.finished_at = r.finished_at + timedelta(microseconds=micro)
    db.commit()


def test_one_statement_gives_the_documents_four_give(
    sessions: sessionmaker[Session], db: Session
) -> None:
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("the one-statement read is Postgres's (JSON aggregation)")
    seed_history(sessions)
    _odd_times(db)
    for name in (*ACCOUNTS, "ANN ", "nobody"):
        for vs in (None, "bob", " FAY", "ann", "nobody", " "):
            if "nobody" in (name, vs) or vs == " ":
                for in_one in (True, False):
                    with pytest.raises(ServiceError):
                        profiles.profile(db, name, SETTINGS, vs=vs, in_one=in_one)
                continue
            one = profiles.profile(db, name, SETTINGS, vs=vs, in_one=True)
            four = profiles.profile(db, name, SETTINGS, vs=vs, in_one=False)
            assert one == four, (name, vs)
    shown = profiles.profile(db, "ann", SETTINGS, in_one=True)
    times = [p["at"] for r in shown["ratings"] for p in r["history"]]
    times += [g["finished_at"] for g in shown["recent"]]
    assert any(t.endswith("0000+00:00") for t in times)  # Postgres's JSON says .12 or so
    assert any(t.endswith("1+00:00") for t in times)  # all six digits


def test_a_profile_shows_others_changes_at_the_next_read(
    sessions: sessionmaker[Session], db: Session
) -> None:
    seed_history(sessions)
    before = profiles.profile(db, "ann", SETTINGS)
    base = next(r for r in before["ratings"] if r["variant"] == "base")
    assert base["rank"] is not None
    names = {s["username"]: s["name"] for g in before["recent"] for s in g["seats"]}
    other = next(n for n in names if n not in (None, "ann"))
    db.execute(update(User).where(User.username == other).values(display_name="Renamed"))
    # Someone else's rating moves above ann's: her rank drops by one, her own rows unchanged.
    below = db.scalar(
        select(Rating)
        .join(User, User.id == Rating.user_id)
        .where(
            Rating.variant == "base",
            Rating.display < base["rating"],
            Rating.sigma <= SETTINGS.rating_provisional_sigma,
            User.username != "ann",
        )
    )
    assert below is not None
    below.display = base["rating"] + 1
    db.commit()
    after = profiles.profile(db, "ann", SETTINGS)
    renamed = {s["username"]: s["name"] for g in after["recent"] for s in g["seats"]}
    assert renamed[other] == "Renamed"
    assert next(r for r in after["ratings"] if r["variant"] == "base")["rank"] == base["rank"] + 1
