"""The one road for a move: every origin commits through it, a finished game's effects run
exactly once in the finishing move's transaction, and a refusal is worded where it is found,
never by deciding the move a second time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import finish_effects, road_for
from app.db.models.accounts import User
from app.db.models.games import Game, Move, Seat
from app.db.models.jobs import Job
from app.services.botseats.runner import BotRunner
from app.services.play import games
from app.services.play import road as road_module
from app.services.play.effects import MoveEffects
from app.services.play.road import MoveRoad
from app.services.tables import lobby, seats
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known, MoveCommand
from app.shared.notify import Notifier

LiveGame = Callable[..., tuple[Game, list[User]]]


@pytest.fixture
def decided(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every time the road asks the engine for a verdict."""
    calls: list[int] = []
    real = road_module.decide

    def counted(*args: Any) -> Any:
        calls.append(args[3])  # the version it was decided at
        return real(*args)

    monkeypatch.setattr(road_module, "decide", counted)
    return calls


def _first(db: Session, game: Game) -> tuple[Any, int, dict[str, Any]]:
    state = games.load_state(db, lobby.get_game(db, game.id))
    seat = rules.to_act(state)
    return state, seat, rules.legal_actions(state, seat)[0]


def _status(db: Session, game_id: int) -> str | None:
    return db.scalar(select(Game.status).where(Game.id == game_id))


def _up_to_the_last_move(
    db: Session, road: MoveRoad, game: Game, seated: list[User]
) -> MoveCommand:
    """Play the first legal action for whoever is to act until the next would end the game;
    that last move, not committed."""
    while True:
        current = lobby.get_game(db, game.id)
        state = games.load_state(db, current)
        seat = rules.to_act(state)
        action = rules.legal_actions(state, seat)[0]
        command = MoveCommand(game.id, current.version, action, user_id=seated[seat].id)
        if rules.is_over(rules.apply(state, action, seat)[0]):
            return command
        _commit(road, command)
        db.expire_all()


def _commit(road: MoveRoad, command: MoveCommand) -> Committed:
    with road.sessions() as db:
        return road.commit_in(db, command)


def test_the_finish_effects_are_the_apps_results_and_review() -> None:
    assert finish_effects().names == ("results", "review")
    effects = MoveEffects()
    effects.on_finish("results", lambda db, game_id: None)
    with pytest.raises(ValueError, match="registered already"):
        effects.on_finish("results", lambda db, game_id: None)


def test_a_finished_games_effects_run_once_in_its_last_moves_transaction(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    ran: list[tuple[str, int, str | None, str | None]] = []
    road = road_for(sessions, Notifier())

    def effect(name: str) -> Callable[[Session, int], None]:
        def run(s: Session, game_id: int) -> None:
            # The finishing move's own transaction sees the game finished; a session of its
            # own does not yet: the effect is part of the move's commit.
            with sessions() as other:
                ran.append((name, game_id, _status(s, game_id), _status(other, game_id)))

        return run

    for name in ("first", "second"):
        road.effects.on_finish(name, effect(name))
    game, seated = live_game(2)
    moves = 0
    while True:
        current = lobby.get_game(db, game.id)
        if current.status != "live":
            break
        state = games.load_state(db, current)
        seat = rules.to_act(state)
        action = rules.legal_actions(state, seat)[0]
        _commit(road, MoveCommand(game.id, current.version, action, user_id=seated[seat].id))
        db.expire_all()
        moves += 1
    assert moves > 20
    assert ran == [
        ("first", game.id, "finished", "live"),
        ("second", game.id, "finished", "live"),
    ]
    # The app's own effects: one results job committed with the finish; no review (analyses
    # are asked for; tests/review/test_review_requests.py has the rated games' automatic ones).
    kinds = db.scalars(select(Job.kind).where(Job.key == f"game:{game.id}")).all()
    assert kinds == ["game_results"], kinds


def test_an_effect_that_fails_undoes_the_finishing_move(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    """The finish and its effects are one transaction: a finish without its results job is
    never committed."""
    road = road_for(sessions, Notifier())

    def broken(_db: Session, _game_id: int) -> None:
        raise RuntimeError("the results job could not be queued")

    road.effects.on_finish("broken", broken)
    game, seated = live_game(2)
    last = _up_to_the_last_move(db, road, game, seated)
    with pytest.raises(RuntimeError):
        _commit(road, last)
    db.expire_all()
    after = lobby.get_game(db, game.id)
    assert (after.status, after.version) == ("live", last.version)


def test_a_stale_move_on_a_known_state_is_refused_from_one_read_not_decided_again(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame, decided: list[int]
) -> None:
    game, seated = live_game(2)
    state, seat, action = _first(db, game)
    known = Known(state, seat, (None, None), clocked=False)
    road = road_for(sessions, Notifier())
    _commit(road, MoveCommand(game.id, 0, action, user_id=seated[seat].id, known=known))
    decided.clear()
    with pytest.raises(ServiceError) as refused:  # the same version again: taken
        _commit(road, MoveCommand(game.id, 0, action, user_id=seated[seat].id, known=known))
    assert refused.value.code == "stale_version"
    assert decided == [0], "decided once; the refusal came from a read, not a second run"


def test_a_seat_that_changed_hands_is_refused_with_why_from_one_read(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame, decided: list[int]
) -> None:
    game, seated = live_game(2)
    state, seat, action = _first(db, game)
    known = Known(state, seat, (None, None), clocked=False)
    db.execute(
        update(Seat).where(Seat.game_id == game.id, Seat.seat == seat).values(bot_level="greedy")
    )
    db.commit()
    with pytest.raises(ServiceError) as refused:
        _commit(
            road_for(sessions),
            MoveCommand(game.id, 0, action, user_id=seated[seat].id, known=known),
        )
    assert refused.value.code == "seat_has_bot" and decided == [0]
    assert db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id)) == 0


def test_an_illegal_move_is_refused_by_the_engine_with_its_reason_and_writes_nothing(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    _state, seat, _action = _first(db, game)
    with pytest.raises(ServiceError) as refused:
        _commit(
            road_for(sessions),
            MoveCommand(game.id, 0, {"type": "end_turn"}, user_id=seated[seat].id),
        )
    assert refused.value.code != "internal" and refused.value.reason is not None
    db.expire_all()
    assert lobby.get_game(db, game.id).version == 0


def test_a_command_is_a_persons_or_a_server_seats_never_both() -> None:
    with pytest.raises(ValueError):
        MoveCommand(1, 0, {"type": "pass"}, user_id=1, seat=0)
    with pytest.raises(ValueError):
        MoveCommand(1, 0, {"type": "pass"})


def test_every_origin_commits_through_the_one_road(
    db: Session,
    sessions: sessionmaker[Session],
    live_game: LiveGame,
    make_user: Callable[[str], User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HTTP, a socket (from the event loop), a bot, and a bot standing in for a timed-out turn:
    each move leaves through `MoveRoad._committed`, the road's one exit, with its mover."""
    exits: list[tuple[int | None, int | None, object]] = []
    real = MoveRoad._committed

    def exit_(self: MoveRoad, command: MoveCommand, *args: Any, **kw: Any) -> Committed:
        move = real(self, command, *args, **kw)
        exits.append((command.user_id, command.seat, command.action_id))
        return move

    monkeypatch.setattr(MoveRoad, "_committed", exit_)
    notifier = Notifier()
    road = road_for(sessions, notifier)
    game, seated = live_game(2)

    # HTTP: the request's session, a person's move.
    _state, seat, action = _first(db, game)
    first_mover = seated[seat].id
    road.commit_in(db, MoveCommand(game.id, 0, action, user_id=first_mover))
    # A socket: from the event loop, with the socket's action id.
    db.expire_all()
    state, seat, action = _first(db, game)
    command = MoveCommand(
        game.id, 1, action, user_id=seated[seat].id, action_id=77,
        known=Known(state, seat, (None, None), clocked=False),
    )  # fmt: skip
    moved = asyncio.run(road.commit(command))
    assert moved.action_id == 77 and moved.user_id == seated[seat].id
    assert exits == [(first_mover, None, None), (seated[seat].id, None, 77)]

    # A bot: the runner's move of a seat the server plays.
    host = make_user("Host")
    bots = lobby.create_game(db, host, 2)
    seats.add_bot(db, bots.id, host, "random")
    bots = lobby.start_game(db, bots.id, host)
    while bots.to_act == 0:  # the host's turn first: a person moves until the bot must act
        state = games.load_state(db, bots)
        first = rules.legal_actions(state, 0)[0]
        road.commit_in(db, MoveCommand(bots.id, bots.version, first, user_id=host.id))
        db.expire_all()
        bots = lobby.get_game(db, bots.id)
    exits.clear()

    async def one_bot_move() -> None:
        async def bot_moved() -> None:
            while not exits:  # polled: the move leaves the road in a worker thread
                await asyncio.sleep(0.01)

        runner = BotRunner(road, delay_s=0, sweep_s=0)
        await runner.start()
        try:
            runner.poke(bots.id)
            await asyncio.wait_for(bot_moved(), 60)
        finally:
            await runner.stop()

    asyncio.run(one_bot_move())
    assert exits and exits[0][:2] == (None, 1), exits


def test_two_finishing_moves_at_once_run_the_effects_once(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    ran: list[int] = []
    road = road_for(sessions, Notifier())
    road.effects.on_finish("count", lambda _db, game_id: ran.append(game_id))
    game, seated = live_game(2)
    last = _up_to_the_last_move(db, road, game, seated)
    outcomes = []
    for _ in range(2):
        try:
            outcomes.append(_commit(road, last))
        except ServiceError as exc:
            outcomes.append(exc)
    assert isinstance(outcomes[0], Committed) and outcomes[0].status == "finished"
    assert isinstance(outcomes[1], ServiceError) and outcomes[1].code in (
        "game_over",
        "stale_version",
    )
    assert ran == [game.id]
