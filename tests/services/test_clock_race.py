"""A timeout claim and the owner's move racing for one turn: exactly one wins (Postgres).

Both orders are forced: the claim's transaction held open while the move arrives (the move
waits for the row, then is refused), and the move's held open while the claim arrives (the
claim skips the locked game, the move lands and moves the clock on). Postgres does not re-check
a subquery of an UPDATE after waiting for a row lock, so only a real server shows the race.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.db.models.accounts import User
from app.db.models.games import Game, Move
from app.services.play import games
from app.services.play.deadlines import Timeout, claim_timeout
from app.services.tables import lobby
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known
from tests.moves import play

MakeUser = Callable[[str], User]


@pytest.fixture
def database_url(make_postgres_db: Callable[[], str]) -> str:
    """Postgres only: SQLite serialises writers, so the interleaving cannot happen there."""
    return make_postgres_db()


@pytest.fixture
def clock_game(db: Session, make_user: MakeUser) -> tuple[Game, list[User]]:
    players = [make_user("Ann"), make_user("Bob")]
    game = lobby.create_game(
        db,
        players[0],
        2,
        extra_options={"first_player": 0},
        clock={"mode": "daily", "per_turn": 60},
    )
    lobby.join_game(db, game.id, players[1])
    return lobby.start_game(db, game.id, players[0]), players


def _held(session: Session, ready: threading.Event, release: threading.Event) -> None:
    """Make `session`'s next commit wait (its locks held) until `release` is set."""
    commit = session.commit

    def held_commit() -> None:
        ready.set()
        assert release.wait(30), "never released"
        commit()

    session.commit = held_commit  # type: ignore[method-assign]


def _wait_for_a_lock_wait(engine: Engine) -> None:
    """Until some transaction waits for a row lock (the move, queued behind the claim)."""
    deadline = time.monotonic() + 30
    with engine.connect() as conn:
        while True:
            waiting = conn.scalar(text("SELECT count(*) FROM pg_locks WHERE NOT granted"))
            if waiting:
                return
            assert time.monotonic() < deadline, "the move never waited for the claim's lock"
            conn.rollback()
            time.sleep(0.01)


def _pass_action(db: Session, game_id: int) -> dict[str, Any]:
    """A turn-ending action for the seat to act (a pass, with its discard and draw)."""
    game = lobby.get_game(db, game_id)
    state = games.load_state(db, game)
    return next(a for a in rules.legal_actions(state, 0) if a["type"] == "pass")


def _submit(
    sessions: sessionmaker[Session], game_id: int, user: User, road: str, action: dict[str, Any]
) -> Any:
    """The owner's move, by the HTTP road (reads the game) or the socket's (a room's copy)."""
    with sessions() as db:
        try:
            known = _known(db, game_id, road)
            version = lobby.get_game(db, game_id).version
            return play(db, game_id, user.id, version, action, known=known)
        except ServiceError as exc:
            return exc


@pytest.mark.parametrize("road", ["http", "socket"])
def test_a_move_arriving_during_a_claim_is_refused_and_the_claim_stands(
    engine: Engine,
    sessions: sessionmaker[Session],
    db: Session,
    clock_game: tuple[Game, list[User]],
    road: str,
) -> None:
    game, players = clock_game
    assert game.due_at is not None
    due = game.due_at + timedelta(seconds=1)
    action = _pass_action(db, game.id)
    ready, release = threading.Event(), threading.Event()
    claims: list[Any] = []

    def claim() -> None:
        with sessions() as s:
            _held(s, ready, release)
            claims.append(claim_timeout(s, due, "greedy", 2, set()))

    claimer = threading.Thread(target=claim)
    claimer.start()
    assert ready.wait(30), "the claim never got as far as its commit"
    moves: list[Any] = []
    mover = threading.Thread(
        target=lambda: moves.append(_submit(sessions, game.id, players[0], road, action))
    )
    mover.start()
    _wait_for_a_lock_wait(engine)
    release.set()
    claimer.join(30)
    mover.join(30)

    [claimed] = claims
    assert isinstance(claimed, Timeout) and claimed.seat == 0
    [refused] = moves
    assert isinstance(refused, ServiceError), "the move landed on a seat the claim gave a bot"
    assert refused.code == "seat_has_bot"
    db.rollback()
    after = lobby.get_game(db, game.id)
    assert after.version == game.version and after.seats[0].bot_level == "greedy"
    assert after.clock["autoplay"] == {"turn": 1, "seat": 0, "keep": False}
    assert after.clock["timeouts"] == [0, 0]  # counted when the bot's turn ends, not before
    assert db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id)) == 0


@pytest.mark.parametrize("road", ["http", "socket"])
def test_a_claim_arriving_during_a_move_skips_it_and_the_move_stands(
    sessions: sessionmaker[Session],
    db: Session,
    clock_game: tuple[Game, list[User]],
    road: str,
) -> None:
    game, players = clock_game
    assert game.due_at is not None
    due = game.due_at  # due exactly now: claimable
    action = _pass_action(db, game.id)
    ready, release = threading.Event(), threading.Event()
    moves: list[Any] = []

    def move() -> None:
        with sessions() as s:
            _held(s, ready, release)
            try:
                moves.append(
                    play(
                        s,
                        game.id,
                        players[0].id,
                        game.version,
                        action,
                        known=_known(s, game.id, road),
                    )
                )
            except ServiceError as exc:
                moves.append(exc)

    mover = threading.Thread(target=move)
    mover.start()
    assert ready.wait(30), "the move never got as far as its commit"
    with sessions() as s:
        assert claim_timeout(s, due, "greedy", 2, set()) is None, "claimed a game being moved"
    release.set()
    mover.join(30)

    [moved] = moves
    assert isinstance(moved, Committed) and moved.version == game.version + 1
    db.rollback()
    after = lobby.get_game(db, game.id)
    assert after.seats[0].bot_level is None and after.clock["autoplay"] is None
    assert after.clock["seat"] == 1 and after.clock["timeouts"] == [0, 0]
    assert after.due_at is not None and after.due_at > due, "the move started Bob's clock"
    with sessions() as s:
        assert claim_timeout(s, due, "greedy", 2, set()) is None
    [row] = db.scalars(select(Move).where(Move.game_id == game.id))
    assert not row.timeout


def _known(db: Session, game_id: int, road: str) -> Known | None:
    if road != "socket":
        return None
    game = lobby.get_game(db, game_id)
    known = Known(games.load_state(db, game), 0, (None, None), clocked=True)
    db.rollback()
    return known
