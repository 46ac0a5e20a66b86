"""Socket moves written from the event loop (Postgres, the one road's loop writer): the same
rows as moves written in a session, refusals worded from one read without running the move
again, one winner of a race, and a lost or absent database answered as `unavailable`, with a
fresh connection after."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.errors import is_unavailable
from app.db.migrate import upgrade_to_head
from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game, Move, Seat
from app.db.session import make_engine
from app.infra import move_write
from app.infra.async_move_write import AsyncMoveWriter
from app.services.play import decide as deciding
from app.services.play import games
from app.services.play.road import MoveRoad
from app.services.tables import lobby
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known, MoveCommand
from tests.services.test_move_write import _rows, _same_start, _wants_notices

LiveGame = Callable[..., tuple[Game, list[User]]]


@pytest.fixture
def engine(make_postgres_db: Callable[[], str]) -> Iterator[Engine]:
    """A migrated Postgres database: the loop road is Postgres's (SQLite writes every move from
    a worker thread), so these tests have no SQLite twin."""
    eng = make_engine(make_postgres_db())
    upgrade_to_head(engine=eng)
    yield eng
    eng.dispose()


@pytest.fixture
def pg(engine: Engine) -> Engine:
    return engine


def _store(sessions: sessionmaker[Session], engine: Engine, connections: int = 2) -> MoveRoad:
    return road_for(sessions, None, loop_writer=AsyncMoveWriter(engine, connections))


def MoveRequest(
    game_id: int, user_id: int, version: int, action: Any, known: Known | None, left: bool
) -> MoveCommand:
    return MoveCommand(game_id, version, action, user_id=user_id, known=known, back=left)


def _in_session(road: MoveRoad, command: MoveCommand) -> Committed:
    with road.sessions() as db:
        return road.commit_in(db, command)


def _first(db: Session, game: Game) -> tuple[Any, int, rules.Action, Known]:
    """The opening position, its seat to act, a legal action, and the state as a room knows it
    (a table without a turn clock)."""
    state = games.load_state(db, lobby.get_game(db, game.id))
    seat = rules.to_act(state)
    action = rules.parse_action(rules.legal_actions(state, seat)[0])
    return state, seat, action, Known(state, seat, (None,) * len(state.players), False)


def test_moves_written_from_the_loop_equal_moves_written_from_a_thread(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame, monkeypatch: Any
) -> None:
    loop_game, loop_users = live_game(3)
    thread_game, thread_users = live_game(3)
    _wants_notices(db, [*loop_users, *thread_users])
    _same_start(db, loop_game, thread_game)
    threaded: list[int] = []
    real = move_write.MoveWriter.write_alone

    def counted(writer: move_write.MoveWriter, row: move_write.MoveRow) -> bool:
        threaded.append(row.game_id)
        return real(writer, row)

    monkeypatch.setattr(move_write.MoveWriter, "write_alone", counted)
    on_loop, in_thread = _store(sessions, pg), road_for(sessions)
    state = games.load_state(db, lobby.get_game(db, loop_game.id))
    rng = random.Random(8)

    async def play() -> int:
        nonlocal state
        moves = 0
        for version in range(30):
            seat = rules.to_act(state)
            action = rules.parse_action(rng.choice(rules.legal_actions(state, seat)))
            known = Known(state, seat, (None, None, None), clocked=False)
            mine = MoveRequest(loop_game.id, loop_users[seat].id, version, action, known, False)
            theirs = MoveRequest(
                thread_game.id, thread_users[seat].id, version, action, known, False
            )
            if rules.is_over(rules.apply(state, action, seat)[0]):
                break  # a finish writes its effects in a session: not the loop's to write
            moved = await on_loop.commit(mine)
            assert moved.user_id == loop_users[seat].id and moved.at
            other = _in_session(in_thread, theirs)
            assert (moved.version, moved.events, moved.to_act) == (
                other.version,
                other.events,
                other.to_act,
            )
            state, moves = moved.state, moves + 1
        await on_loop.loop_writer.close()
        return moves

    moves = asyncio.run(play())
    assert moves >= 20
    # Only the thread road's game went through the worker-thread writer.
    assert set(threaded) == {thread_game.id}
    db.expire_all()
    mine, theirs = _rows(db, loop_game.id), _rows(db, thread_game.id)
    assert mine == theirs
    assert mine["notices"], "turns started: their notices were written with the moves"
    assert rules.state_from_json(mine["game"][3]) == state


def test_what_the_loop_does_not_write_goes_through_a_session_once(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame, monkeypatch: Any
) -> None:
    """No state known, a table that may have a clock, a "left" mark: each such move is written
    in a session (not by the loop writer), once, and decided once."""
    written_on_loop: list[int] = []
    decided: list[int] = []
    real_write, real_decide = AsyncMoveWriter.write, deciding.decide

    async def on_loop(writer: AsyncMoveWriter, row: move_write.MoveRow) -> bool:
        written_on_loop.append(row.game_id)
        return await real_write(writer, row)

    def counted(*args: Any) -> Any:
        decided.append(1)
        return real_decide(*args)

    monkeypatch.setattr(AsyncMoveWriter, "write", on_loop)
    monkeypatch.setattr("app.services.play.road.decide", counted)
    for kind in ("unknown", "clocked", "left"):
        game, seated = live_game(2)
        state, seat, action, known = _first(db, game)
        if kind == "unknown":
            known = None
        elif kind == "clocked":
            known = Known(state, seat, (None, None))
        command = MoveRequest(game.id, seated[seat].id, 0, action, known, kind == "left")
        decided.clear()
        moved = asyncio.run(_commit_once(_store(sessions, pg), command))
        assert moved.version == 1 and decided == [1], kind
        db.expire_all()
        assert lobby.get_game(db, game.id).version == 1
    assert written_on_loop == []


async def _commit_once(road: MoveRoad, command: MoveCommand) -> Committed:
    try:
        return await road.commit(command)
    finally:
        assert road.loop_writer is not None
        await road.loop_writer.close()


def test_a_stale_move_is_refused_from_the_loop_worded_from_a_read_not_run_again(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame, monkeypatch: Any
) -> None:
    game, seated = live_game(2)
    _state, seat, action, known = _first(db, game)
    user = seated[seat].id
    store = _store(sessions, pg)
    decided: list[int] = []
    real_decide = deciding.decide

    def counted(*args: Any) -> Any:
        decided.append(1)
        return real_decide(*args)

    monkeypatch.setattr("app.services.play.road.decide", counted)

    async def attempt() -> ServiceError:
        with pytest.raises(ServiceError) as refused:
            await store.commit(MoveRequest(game.id, user, 5, action, known, False))
        await store.loop_writer.close()
        return refused.value

    refused = asyncio.run(attempt())
    assert refused.code == "stale_version" and decided == [1]
    db.expire_all()
    assert lobby.get_game(db, game.id).version == 0
    assert db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id)) == 0


def test_a_seat_that_changed_hands_or_an_illegal_action_writes_nothing_from_the_loop(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    _state, seat, action, known = _first(db, game)
    store = _store(sessions, pg)
    illegal = rules.parse_action({"type": "end_turn"})
    db.execute(
        update(Seat).where(Seat.game_id == game.id, Seat.seat == seat).values(bot_level="greedy")
    )
    db.commit()

    async def attempts() -> Any:
        with pytest.raises(ServiceError) as bad:
            await store.commit(MoveRequest(game.id, seated[seat].id, 0, illegal, known, False))
        with pytest.raises(ServiceError) as taken:
            await store.commit(MoveRequest(game.id, seated[seat].id, 0, action, known, False))
        await store.loop_writer.close()
        return bad.value, taken.value

    bad, taken = asyncio.run(attempts())
    assert bad.code != "internal" and bad.reason is not None  # the engine's own explanation
    # The UPDATE re-checked the seat's owner, nothing was written, and the read says why.
    assert taken.code == "seat_has_bot"
    db.expire_all()
    assert lobby.get_game(db, game.id).version == 0


def test_of_moves_against_one_version_from_the_loop_exactly_one_is_written(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    _state, seat, action, known = _first(db, game)
    store = _store(sessions, pg, connections=4)

    async def race() -> list[Any]:
        request = MoveRequest(game.id, seated[seat].id, 0, action, known, False)
        out = await asyncio.gather(
            *(store.commit(request) for _ in range(4)), return_exceptions=True
        )
        await store.loop_writer.close()
        return out

    outcomes = asyncio.run(race())
    assert sorted(m.version if isinstance(m, Committed) else 0 for m in outcomes) == [0, 0, 0, 1]
    refusals = [m.code for m in outcomes if isinstance(m, ServiceError)]
    assert refusals == ["stale_version"] * 3
    count = db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id))
    assert count == 1


def test_a_lost_connection_is_unavailable_once_and_the_next_move_connects_afresh(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    store = _store(sessions, pg, connections=1)
    writer = store.loop_writer
    assert writer is not None
    url = pg.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def request(version: int, state: Any) -> MoveRequest:
        seat = rules.to_act(state)
        action = rules.parse_action(rules.legal_actions(state, seat)[0])
        known = Known(state, seat, (None, None), clocked=False)
        return MoveRequest(game.id, seated[seat].id, version, action, known, False)

    async def play() -> tuple[Exception, int]:
        state = games.load_state(db, game)
        first = await store.commit(request(0, state))
        assert first is not None and writer.opened == 1
        # The server ends the writer's session (a restart, an administrator, a failover).
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                " AND state = 'idle'"
                " AND query LIKE 'WITH moved AS%%'"
            )
        with pytest.raises(Exception) as lost:
            await store.commit(request(1, first.state))
        again = await store.commit(request(1, first.state))  # the same move, retried
        assert again is not None
        await store.loop_writer.close()
        return lost.value, again.version

    lost, version = asyncio.run(play())
    assert is_unavailable(lost), repr(lost)
    assert version == 2 and writer.opened == 2
    db.expire_all()
    assert lobby.get_game(db, game.id).version == 2


def test_a_database_away_is_unavailable_from_the_loop_too() -> None:
    engine = make_engine("postgresql+psycopg://root@127.0.0.1:9/nowhere")
    writer = AsyncMoveWriter(engine, 1)
    row = move_write.MoveRow(1, 0, 0, 1, {"version": 1}, {"created_at": utcnow()}, None)
    with pytest.raises(Exception) as failed:
        asyncio.run(writer.write(row))
    assert is_unavailable(failed.value), repr(failed.value)
    engine.dispose()


def test_a_write_cancelled_mid_statement_never_lends_its_connection_again(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    _state, seat, action, known = _first(db, game)
    store = _store(sessions, pg, connections=1)
    writer = store.loop_writer
    assert writer is not None
    url = pg.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def cancelled_then_written() -> Any:
        request = MoveRequest(game.id, seated[seat].id, 0, action, known, False)
        # Another session holds the game's row: the move's UPDATE waits for it, and is cancelled.
        with psycopg.connect(url) as holder:
            holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game.id,))
            task = asyncio.create_task(store.commit(request))
            while writer.opened == 0 or not _waiting_on_lock(url):
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            holder.rollback()
        assert writer._idle == []  # closed, not kept: its state was unknown
        moved = await store.commit(request)
        await store.loop_writer.close()
        return moved

    moved = asyncio.run(cancelled_then_written())
    assert moved is not None and moved.version == 1 and writer.opened == 2
    db.expire_all()
    assert db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id)) == 1


def _waiting_on_lock(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as probe:
        row = probe.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database()"
        ).fetchone()
    return bool(row and row[0])


def test_a_move_that_waits_too_long_for_a_connection_is_unavailable(
    pg: Engine, db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    """A database that stopped answering holds every loop connection: the next move waits the
    pool's checkout timeout at most, then gets `unavailable` (never a wait without end)."""
    game, seated = live_game(2)
    _state, seat, action, known = _first(db, game)
    store = road_for(sessions, None, loop_writer=AsyncMoveWriter(pg, 1, wait_s=0.2))
    url = pg.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def blocked() -> Exception:
        request = MoveRequest(game.id, seated[seat].id, 0, action, known, False)
        with psycopg.connect(url) as holder:
            holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game.id,))
            stuck = asyncio.create_task(store.commit(request))  # holds the one connection
            while not _waiting_on_lock(url):
                await asyncio.sleep(0.01)
            with pytest.raises(Exception) as waited:
                await store.commit(request)
            holder.rollback()
        assert (await stuck) is not None  # the held move went in once the row was free
        await store.loop_writer.close()
        return waited.value

    waited = asyncio.run(blocked())
    assert is_unavailable(waited), repr(waited)
