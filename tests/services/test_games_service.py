"""submit_action: the one path for moves (HTTP now, WebSocket later)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.db.models.accounts import User
from app.db.models.games import Game, Move, Seat
from app.services.play import games
from app.services.tables import lobby
from app.shared.errors import ServiceError
from app.shared.notify import Notifier
from app.shared.state_cache import states_of
from tests.moves import play, play_seat
from tests.services.races import race

LiveGame = Callable[..., tuple[Game, list[User]]]


def _play(db: Session, game: Game, seated: list[User], n: int, **kw: Any) -> Game:
    for _ in range(n):
        game = lobby.get_game(db, game.id)
        if game.status != "live":
            break
        state = games.load_state(db, game)
        seat = rules.to_act(state)
        action = rules.legal_actions(state, seat)[0]
        play(db, game.id, seated[seat].id, game.version, action, **kw)
    return lobby.get_game(db, game.id)


def test_replaying_the_move_log_reproduces_the_snapshot(db: Session, live_game: LiveGame) -> None:
    game, seated = live_game(3)
    game = _play(db, game, seated, 40)
    moves = db.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.seq)).all()
    assert [m.seq for m in moves] == list(range(1, game.version + 1))
    replayed = rules.replay(
        rules.GameOptions.from_dict(game.options), game.seed, [(m.seat, m.action) for m in moves]
    )
    assert rules.state_to_json(replayed) == game.snapshot
    assert game.to_act == rules.to_act(replayed)


def test_state_loads_from_the_snapshot_without_the_cache(db: Session, live_game: LiveGame) -> None:
    game, seated = live_game(2)
    game = _play(db, game, seated, 5)
    cached = games.load_state(db, game)
    states_of(db).clear()
    assert rules.state_to_json(games.load_state(db, game)) == rules.state_to_json(cached)


def test_concurrent_submissions_exactly_one_wins(
    sessions: sessionmaker[Session], db: Session, live_game: LiveGame, monkeypatch: Any
) -> None:
    game, seated = live_game(2)
    state = games.load_state(db, game)
    seat = rules.to_act(state)
    action = rules.legal_actions(state, seat)[0]
    contenders = 4

    def submit() -> int:
        with sessions() as own:
            return play(own, game.id, seated[seat].id, 0, action).version

    outcomes = race(monkeypatch, contenders, submit)
    assert sorted(outcomes, key=str) == [1] + ["stale_version"] * (contenders - 1)
    count = db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id))
    assert count == 1
    assert lobby.get_game(db, game.id).version == 1


def test_refused_action_changes_nothing_and_notifies_nobody(
    db: Session, live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    notifier = Notifier()
    calls: list[tuple[int, int]] = []
    notifier.on_game_changed.append(lambda g, v, _c: calls.append((g, v)))
    snapshot = game.snapshot
    seat = game.to_act
    assert seat is not None
    with pytest.raises(ServiceError) as err:
        play(db, game.id, seated[seat].id, 0, {"type": "nope"}, notifier=notifier)
    assert err.value.code == "bad_action"
    with pytest.raises(ServiceError) as err:
        play(db, game.id, seated[1 - seat].id, 0, {"type": "pass"})
    assert err.value.code == "not_your_turn"
    fresh = lobby.get_game(db, game.id)
    assert fresh.version == 0 and fresh.snapshot == snapshot and calls == []


def test_listeners_run_after_commit_and_cannot_break_a_move(
    sessions: sessionmaker[Session], db: Session, live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    notifier = Notifier()
    seen: list[tuple[int, int, int]] = []

    def listener(game_id: int, version: int, _move: object) -> None:
        with sessions() as other:  # another connection already sees the committed move
            committed = other.scalar(select(Game.version).where(Game.id == game_id))
        seen.append((game_id, version, committed or -1))

    def broken(_game_id: int, _version: int, _move: object) -> None:
        raise RuntimeError("listener bug")

    notifier.on_game_changed += [broken, listener]
    _play(db, game, seated, 2, notifier=notifier)
    assert seen == [(game.id, 1, 1), (game.id, 2, 2)]


def test_bot_controlled_seat(db: Session, live_game: LiveGame) -> None:
    game, seated = live_game(2)
    seat = game.to_act
    assert seat is not None
    row = db.scalar(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat))
    assert row is not None
    row.bot_level = "easy"
    db.commit()
    action = rules.legal_actions(games.load_state(db, game), seat)[0]
    with pytest.raises(ServiceError) as err:
        play(db, game.id, seated[seat].id, 0, action)
    assert err.value.code == "seat_has_bot"
    # The human owner watches: their view, but no legal actions while the bot plays.
    state = games.game_state(db, game.id, seated[seat].id)
    assert state["seat"] == seat and state["legal_actions"] == []
    move = play_seat(db, game.id, seat, 0, action)
    assert move.version == 1 and move.events
