"""The bot runner: bots play their seats to the end, survive bad bots, races, restarts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.models.accounts import User
from app.db.models.games import Game, Move
from app.infra import bot_pool
from app.services.botseats.runner import BotRunner
from app.services.play import games
from app.services.tables import lobby, seats
from app.shared.notify import Notifier
from tests.moves import play

pytestmark = pytest.mark.anyio

MakeUser = Callable[[str], User]


@pytest.fixture
def anyio_backend() -> str:
    """The server's loop is asyncio."""
    return "asyncio"


def _bot_table(db: Session, host: User, levels: list[str]) -> Game:
    """An open table: the host in seat 0 and a bot in every other seat."""
    game = lobby.create_game(db, host, len(levels) + 1)
    for level in levels:
        seats.add_bot(db, game.id, host, level)
    return game


def _all_bots(db: Session, host: User, levels: list[str], notifier: Notifier) -> Game:
    """A live game played by bots only: the host hands their own seat to a bot too."""
    game = _bot_table(db, host, levels[1:])
    lobby.start_game(db, game.id, host)
    return seats.hand_seat_to_bot(db, game.id, host, levels[0], notifier=notifier)


async def _wait_for(check: Callable[[], bool], timeout: float = 30.0) -> None:
    import anyio

    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await anyio.sleep(0.02)


def _status(sessions: sessionmaker[Session], game_id: int) -> tuple[str, int]:
    with sessions() as db:
        game = lobby.get_game(db, game_id)
        return game.status, game.version


def _move_count(sessions: sessionmaker[Session], game_id: int) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).where(Move.game_id == game_id)) or 0


async def test_a_game_of_bots_plays_itself_to_the_end(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    notifier = Notifier()
    runner = BotRunner(road_for(sessions, notifier), delay_s=0, sweep_s=0)
    await runner.start()
    try:
        began = time.perf_counter()
        game = _all_bots(db, make_user("Host"), ["random", "greedy", "random"], notifier)
        await _wait_for(lambda: _status(sessions, game.id)[0] == "finished", timeout=40)
        elapsed = time.perf_counter() - began
    finally:
        await runner.stop()
    status, version = _status(sessions, game.id)
    assert status == "finished"
    assert version == _move_count(sessions, game.id) == runner.stats.moves
    assert runner.stats.fallbacks == 0 and runner.stats.failures == 0
    # Pending choices (R-25: missions, Reefs, keep_reef ...) are bot decisions like any other.
    print(f"\n{version} bot moves in {elapsed:.2f} s ({1000 * elapsed / version:.1f} ms/move)")


async def test_two_runners_on_one_database_never_play_a_move_twice(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    # Two server instances: each hears only its own commits, so they also rely on the sweep.
    # A short thinking delay gives the other instance's sweep time to race for the same turn
    # (a runner that hears its own commit plays the next bot turn from memory at once).
    first, second = Notifier(), Notifier()
    runners = [
        BotRunner(road_for(sessions, first), delay_s=0.03, sweep_s=0.02),
        BotRunner(road_for(sessions, second), delay_s=0.03, sweep_s=0.02),
    ]
    for runner in runners:
        await runner.start()
    try:
        game = _all_bots(db, make_user("Host"), ["random", "random"], first)
        await _wait_for(lambda: _status(sessions, game.id)[0] == "finished")
    finally:
        for runner in runners:
            await runner.stop()
    _, version = _status(sessions, game.id)
    assert _move_count(sessions, game.id) == version
    assert sum(r.stats.moves for r in runners) == version
    # Both instances raced for turns (a loser's submission is refused as stale): the race the
    # version check settles really happened, and it never let a move in twice.
    assert all(r.stats.moves + r.stats.stale > 0 for r in runners)
    assert sum(r.stats.stale for r in runners) > 0
    with sessions() as check:
        seqs = list(check.scalars(select(Move.seq).where(Move.game_id == game.id)))
    assert sorted(seqs) == list(range(1, version + 1))


class _Broken:
    """A bot that raises, or answers something that is not among the legal actions."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if self.mode == "raise":
            raise ZeroDivisionError("a bug in the bot")
        return {"type": "place", "card": "nonsense"}


@pytest.mark.parametrize("mode", ["raise", "illegal"])
async def test_a_failing_bot_falls_back_to_a_random_legal_action(
    db: Session,
    sessions: sessionmaker[Session],
    make_user: MakeUser,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
) -> None:
    monkeypatch.setattr(bot_pool, "make_bot", lambda *a, **k: _Broken(mode))
    notifier = Notifier()
    runner = BotRunner(road_for(sessions, notifier), delay_s=0, sweep_s=0)
    await runner.start()
    try:
        game = _all_bots(db, make_user("Host"), ["greedy", "greedy"], notifier)
        await _wait_for(lambda: _status(sessions, game.id)[1] >= 20)
    finally:
        await runner.stop()
    assert runner.stats.fallbacks >= 20 and runner.stats.failures == 0


async def test_a_runner_started_later_resumes_a_waiting_bot(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    # The bot's turn came while no runner was running (a restart, say): startup picks it up.
    host = make_user("Host")
    game = _bot_table(db, host, ["greedy"])
    game = lobby.start_game(db, game.id, host)
    while game.to_act == 0:  # the host plays until the bot must decide
        state = games.load_state(db, game)
        play(db, game.id, host.id, game.version, rules.legal_actions(state, 0)[0])
        game = lobby.get_game(db, game.id)
    waiting_at = game.version
    assert seats.bot_games_to_act(db) == [game.id]
    runner = BotRunner(road_for(sessions, Notifier()), delay_s=0, sweep_s=0)
    await runner.start()
    try:
        await _wait_for(lambda: _status(sessions, game.id)[1] > waiting_at)
        await runner.idle()
    finally:
        await runner.stop()
    game = lobby.get_game(db, game.id)
    assert game.to_act == 0 or game.status == "finished"  # the bot played its whole turn


async def test_a_reclaimed_seat_is_not_played_by_a_bot_still_thinking(
    db: Session,
    sessions: sessionmaker[Session],
    make_user: MakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    thinking, release = threading.Event(), threading.Event()

    class Slow:
        def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
            thinking.set()
            release.wait(10)
            return legal[0]

    monkeypatch.setattr(bot_pool, "make_bot", lambda *a, **k: Slow())
    host, guest = make_user("Host"), make_user("Guest")
    game = lobby.create_game(db, host, 2)
    lobby.join_game(db, game.id, guest)
    game = lobby.start_game(db, game.id, host)
    owner = (host, guest)[game.to_act or 0]
    notifier = Notifier()
    runner = BotRunner(road_for(sessions, notifier), delay_s=0, sweep_s=0)
    await runner.start()
    try:
        seats.hand_seat_to_bot(db, game.id, owner, "greedy", notifier=notifier)
        await _wait_for(thinking.is_set)
        seats.take_seat_back(db, game.id, owner, notifier=notifier)
        release.set()
        assert await runner.idle()
    finally:
        release.set()
        await runner.stop()
    assert _status(sessions, game.id)[1] == 0  # the owner's decision is still theirs to make
    assert runner.stats.moves == 0
