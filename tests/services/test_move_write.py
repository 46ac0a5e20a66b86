"""A move's write on its own (the driver's connection, no Session) against the same move written
in a Session: the same rows, the same refusals, the same errors, on SQLite and Postgres."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.errors import is_unavailable
from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game, Move, Seat
from app.db.models.notices import OutboxEmail
from app.db.session import make_engine
from app.infra import move_write
from app.services.play import games
from app.services.tables import lobby
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known, MoveCommand
from tests.moves import play
from tests.services.races import race

LiveGame = Callable[..., tuple[Game, list[User]]]


def MoveRequest(
    game_id: int, user_id: int, version: int, action: Any, known: Any, left: bool
) -> MoveCommand:
    return MoveCommand(game_id, version, action, user_id=user_id, known=known, back=left)


class _SocketRoad:
    """A socket's move as a worker thread commits it: the one road, in a session of its own."""

    def __init__(self, sessions: Any) -> None:
        self.road = road_for(sessions)

    def submit(self, command: MoveCommand) -> Committed:
        with self.road.sessions() as db:
            return self.road.commit_in(db, command)


def _wants_notices(db: Session, users: list[User]) -> None:
    """Every seat's owner has a verified address with notices on: each turn writes a notice."""
    for user in users:
        db.execute(
            update(User)
            .where(User.id == user.id)
            .values(email=f"u{user.id}@example.com", email_verified_at=utcnow(), notices=True)
        )
    db.commit()


def _same_start(db: Session, source: Game, target: Game) -> None:
    """Deal `target` as `source` was dealt (seed and snapshot)."""
    db.execute(
        update(Game)
        .where(Game.id == target.id)
        .values(seed=source.seed, snapshot=source.snapshot, to_act=source.to_act)
    )
    db.commit()


def _rows(db: Session, game_id: int) -> dict[str, Any]:
    game = db.execute(
        select(Game.version, Game.status, Game.to_act, Game.snapshot).where(Game.id == game_id)
    ).one()
    moves = db.execute(
        select(Move.seq, Move.seat, Move.action, Move.events, Move.timeout)
        .where(Move.game_id == game_id)
        .order_by(Move.seq)
    ).all()
    seats = {s.user_id: s.seat for s in db.scalars(select(Seat).where(Seat.game_id == game_id))}
    notices = db.execute(
        select(OutboxEmail.user_id, OutboxEmail.turn, OutboxEmail.kind, OutboxEmail.status)
        .where(OutboxEmail.game_id == game_id)
        .order_by(OutboxEmail.turn)
    ).all()
    return {
        "game": tuple(game),
        "moves": [tuple(m) for m in moves],
        # By seat, not user: the two games have different people in the same seats.
        "notices": [(seats[n.user_id], n.turn, n.kind, n.status) for n in notices],
    }


def test_a_move_written_alone_equals_one_written_in_a_session(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame, monkeypatch: Any
) -> None:
    alone_game, alone_users = live_game(3)
    session_game, session_users = live_game(3)
    _wants_notices(db, [*alone_users, *session_users])
    _same_start(db, alone_game, session_game)
    alone_writes = []
    real = move_write.MoveWriter.write_alone

    def counted(writer: move_write.MoveWriter, row: move_write.MoveRow) -> bool:
        alone_writes.append(row.seen)
        return real(writer, row)

    monkeypatch.setattr(move_write.MoveWriter, "write_alone", counted)
    store = _SocketRoad(sessions)
    state = games.load_state(db, lobby.get_game(db, alone_game.id))
    rng = random.Random(5)
    for version in range(30):
        seat = rules.to_act(state)
        action = rules.parse_action(rng.choice(rules.legal_actions(state, seat)))
        known = Known(state, seat, (None, None, None), clocked=False)
        request = MoveRequest(alone_game.id, alone_users[seat].id, version, action, known, False)
        alone = store.submit(request)
        with sessions() as other:
            other.execute(select(1))  # a transaction already open: the move joins it
            in_session = play(
                other, session_game.id, session_users[seat].id, version, action, known=known
            )
        assert (alone.version, alone.events) == (in_session.version, in_session.events)
        state = alone.state
        if rules.is_over(state):
            break
    assert alone_writes == list(range(len(alone_writes))) and len(alone_writes) >= 20
    db.expire_all()
    written_alone, written_in_session = _rows(db, alone_game.id), _rows(db, session_game.id)
    assert written_alone == written_in_session
    assert written_alone["notices"], "turns started: their notices were written with the moves"
    assert rules.state_from_json(written_alone["game"][3]) == state


def test_of_writes_alone_against_one_version_exactly_one_wins(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame, monkeypatch: Any
) -> None:
    game, seated = live_game(2)
    state = games.load_state(db, game)
    seat = rules.to_act(state)
    action = rules.parse_action(rules.legal_actions(state, seat)[0])
    known = Known(state, seat, (None, None), clocked=False)
    contenders = 4
    store = _SocketRoad(sessions)

    def submit() -> int:
        return store.submit(MoveRequest(game.id, seated[seat].id, 0, action, known, False)).version

    outcomes = race(monkeypatch, contenders, submit)
    assert sorted(outcomes, key=str) == [1] + ["stale_version"] * (contenders - 1)
    count = db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id))
    assert count == 1


def test_a_write_alone_for_a_seat_that_changed_hands_writes_nothing(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    state = games.load_state(db, game)
    seat = rules.to_act(state)
    action = rules.parse_action(rules.legal_actions(state, seat)[0])
    known = Known(state, seat, (None, None), clocked=False)
    db.execute(
        update(Seat).where(Seat.game_id == game.id, Seat.seat == seat).values(bot_level="greedy")
    )
    db.commit()
    with pytest.raises(ServiceError) as refused:
        _SocketRoad(sessions).submit(MoveRequest(game.id, seated[seat].id, 0, action, known, False))
    assert refused.value.code == "seat_has_bot"
    db.expire_all()
    assert lobby.get_game(db, game.id).version == 0
    assert db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id)) == 0


def test_a_move_on_postgres_is_one_statement_outside_a_transaction(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame, monkeypatch: Any
) -> None:
    engine = db.get_bind()
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite runs the move's statements in one transaction of their own")
    import psycopg

    game, seated = live_game(2)
    state = games.load_state(db, game)
    db.commit()  # the test's own session holds no connection from here on
    seat = rules.to_act(state)
    action = rules.parse_action(rules.legal_actions(state, seat)[0])
    sent: list[tuple[str, bool]] = []
    real_execute, real_commit = psycopg.Cursor.execute, psycopg.Connection.commit

    def execute(cursor: Any, query: Any, *args: Any, **kw: Any) -> Any:
        sent.append((str(query).split()[0], cursor.connection.autocommit))
        return real_execute(cursor, query, *args, **kw)

    def commit(connection: Any) -> None:
        sent.append(("COMMIT", connection.autocommit))
        real_commit(connection)

    monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    monkeypatch.setattr(psycopg.Connection, "commit", commit)
    known = Known(state, seat, (None, None), clocked=False)
    moved = _SocketRoad(sessions).submit(
        MoveRequest(game.id, seated[seat].id, 0, action, known, False)
    )
    monkeypatch.undo()
    assert moved.version == 1
    # One statement, run in autocommit: no BEGIN before it, no COMMIT after it.
    assert sent == [("WITH", True)]
    # The pool lends the connection returned last: it went back ready for transactions.
    connection = engine.raw_connection()  # type: ignore[union-attr]
    try:
        assert connection.driver_connection.autocommit is False
    finally:
        connection.close()
    db.expire_all()
    assert lobby.get_game(db, game.id).version == 1
    assert db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id)) == 1


@pytest.mark.parametrize(
    "url", ["postgresql+psycopg://root@127.0.0.1:9/nowhere", "sqlite:////nonexistent/dir/x.db"]
)
def test_a_database_away_is_unavailable_as_from_a_session(url: str) -> None:
    engine = make_engine(url)
    row = move_write.MoveRow(1, 0, 0, 1, {"version": 1}, {}, None)
    with pytest.raises(Exception) as failed:
        move_write.MoveWriter(engine).write_alone(row)
    assert is_unavailable(failed.value), repr(failed.value)
    engine.dispose()
