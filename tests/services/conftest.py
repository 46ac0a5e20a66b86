"""Fixtures for service tests: a migrated database, sessions and seated users."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.db.migrate import upgrade_to_head
from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.session import make_engine, make_sessionmaker
from app.services.accounts import users
from app.services.tables import lobby
from app.shared.passwords import Passwords
from tests.conftest import CHEAP_PASSWORDS


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A migrated database of each kind."""
    eng = make_engine(database_url)
    upgrade_to_head(engine=eng)
    yield eng
    eng.dispose()


@pytest.fixture
def sessions(engine: Engine) -> sessionmaker[Session]:
    """The session factory the app would use (passwords at Argon2's cheapest cost)."""
    cheap = Passwords(
        CHEAP_PASSWORDS["password_hash_time_cost"], CHEAP_PASSWORDS["password_hash_memory_kib"]
    )
    return make_sessionmaker(engine, passwords=cheap)


@pytest.fixture
def db(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """One session for the test body."""
    with sessions() as session:
        yield session


@pytest.fixture
def make_user(db: Session) -> Callable[[str], User]:
    """Create a guest user."""

    def make(name: str) -> User:
        return users.start_guest(db, name, None, None)[0]

    return make


@pytest.fixture
def live_game(
    db: Session, make_user: Callable[[str], User]
) -> Callable[..., tuple[Game, list[User]]]:
    """Create, fill and start a game; returns (game, users by seat)."""

    def make(players: int = 2) -> tuple[Game, list[User]]:
        seated = [make_user(f"P{i}") for i in range(players)]
        game = lobby.create_game(db, seated[0], players)
        for user in seated[1:]:
            lobby.join_game(db, game.id, user)
        return lobby.start_game(db, game.id, seated[0]), seated

    return make
