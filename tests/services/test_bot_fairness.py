"""Bots as a bounded, fair resource: decisions in niced worker processes, a bounded number at
once, and games only bots play paused while nobody attends them."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game, Seat
from app.infra import bot_pool
from app.infra.bot_pool import DecisionPool
from app.services.botseats.runner import BotRunner
from app.services.tables import presence
from app.shared.notify import Notifier
from tests.services.test_bot_runner import _all_bots, _status, _wait_for

pytestmark = pytest.mark.anyio
MakeUser = Callable[[str], User]


@pytest.fixture
def anyio_backend() -> str:
    """The server's loop is asyncio."""
    return "asyncio"


def _a_turn() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state = rules.new_game(rules.GameOptions(players=2), 7)
    seat = rules.to_act(state)
    return rules.view_for(state, seat), rules.legal_actions(state, seat)


async def test_decisions_run_in_a_niced_worker_process() -> None:
    workers = bot_pool.WorkerProcesses(1, nice=7)
    pool = DecisionPool(workers)
    pool.start()
    view, legal = _a_turn()
    decision = await pool.decide("greedy", view, legal, None, 1)
    assert decision.error is None and decision.action in legal and decision.think_s > 0
    worker = workers.executor()
    assert worker.submit(os.getpid).result(30) != os.getpid()
    assert worker.submit(os.nice, 0).result(30) == min(19, os.nice(0) + 7)
    pool.stop()
    workers.shutdown()


async def test_a_worker_that_dies_is_replaced() -> None:
    workers = bot_pool.WorkerProcesses(1, nice=3)
    pool = DecisionPool(workers)
    pool.start()
    view, legal = _a_turn()
    first = workers.executor()
    os.kill(first.submit(os.getpid).result(30), signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):
        for _ in range(50):  # until the pool has noticed its worker is gone
            await pool.decide("random", view, legal, None, 2)
    decision = await pool.decide("random", view, legal, None, 3)
    assert decision.action in legal and workers.executor() is not first
    pool.stop()
    workers.shutdown()


async def test_at_most_one_decision_per_slot_runs_at_once_and_every_game_gets_its_turn(
    db: Session,
    sessions: sessionmaker[Session],
    make_user: MakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six games of bots beside each other on two slots: never more than two bots think at
    once, and every game moves on (first come, first served)."""
    lock, running, peak = threading.Lock(), [0], [0]

    class Counting:
        def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.01)  # a bot thinking (not a synchronisation: nothing waits on it)
            with lock:
                running[0] -= 1
            return legal[0]

    monkeypatch.setattr(bot_pool, "make_bot", lambda *a, **k: Counting())
    notifier = Notifier()
    runner = BotRunner(road_for(sessions, notifier), delay_s=0, sweep_s=0)  # threads: 2 slots
    await runner.start()
    try:
        started = [
            _all_bots(db, make_user(f"H{i}"), ["random", "random"], notifier) for i in range(6)
        ]
        await _wait_for(lambda: all(_status(sessions, g.id)[1] >= 8 for g in started), 60)
    finally:
        await runner.stop()
    assert runner.pool.slots == 2 and 1 <= peak[0] <= 2, peak


def _nobody_here(sessions: sessionmaker[Session], game_id: int, ago_s: float = 3600) -> None:
    """Backdate the game's start and every seat's presence: nobody has been at the table."""
    long_ago = utcnow() - timedelta(seconds=ago_s)
    with sessions() as db:
        db.execute(update(Game).where(Game.id == game_id).values(started_at=long_ago))
        db.execute(
            update(Seat)
            .where(Seat.game_id == game_id)
            .values(last_seen_at=long_ago, joined_at=long_ago, socket_until=None)
        )
        db.commit()


async def test_a_game_of_bots_nobody_attends_pauses_and_goes_on_when_a_player_is_back(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    host = make_user("Host")
    notifier = Notifier()
    game = _all_bots(db, host, ["random", "random"], notifier)
    _nobody_here(sessions, game.id)
    runner = BotRunner(
        road_for(sessions, notifier), delay_s=0, sweep_s=0, pause_after_s=60, resume_check_s=0.05
    )
    await runner.start()  # the first sweep finds the game: nobody there, so it is paused
    try:
        await _wait_for(lambda: game.id in runner.attendance.paused)
        assert await runner.idle()
        assert _status(sessions, game.id) == ("live", 0) and runner.stats.moves == 0
        # The host opens the game's page (a request, a socket): the bots play on.
        with sessions() as s:
            presence.mark_seen(s, game.id, host.id, min_interval_s=0)
        await _wait_for(lambda: _status(sessions, game.id)[1] >= 3)
        assert game.id not in runner.attendance.paused and runner.attendance.resumes == 1
        # Gone again: the bots stop at a next decision and the game stays live.
        runner.attendance.pause_after_s = 0.3  # (cached answers last pause_after_s / 4)
        _nobody_here(sessions, game.id)
        await _wait_for(lambda: game.id in runner.attendance.paused)
        assert await runner.idle()
        status, paused_at = _status(sessions, game.id)
        assert status == "live"
        runner.poke(game.id)  # a change elsewhere makes the runner look again: still nobody
        assert await runner.idle()
        assert _status(sessions, game.id) == ("live", paused_at)
        assert game.id in runner.attendance.paused
    finally:
        await runner.stop()


async def test_a_person_at_the_table_keeps_the_bots_going(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    """Only games nobody plays are paused: a person's seat keeps the game attended, however
    long since they were seen (the bots wait for them at their turn anyway)."""
    from app.services.tables import lobby, seats

    host = make_user("Host")
    game = lobby.create_game(db, host, 2)
    seats.add_bot(db, game.id, host, "random")
    game = lobby.start_game(db, game.id, host)
    _nobody_here(sessions, game.id)
    with sessions() as s:
        assert presence.attended(s, [game.id], 60) == {game.id: True}
        s.execute(
            update(Seat).where(Seat.game_id == game.id, Seat.seat == 0).values(bot_level="random")
        )
        s.commit()
        assert presence.attended(s, [game.id], 60) == {game.id: False}
        s.execute(update(Game).where(Game.id == game.id).values(status="finished"))
        s.commit()
        assert presence.attended(s, [game.id], 60) == {}  # only live games are asked about


@pytest.mark.server
def test_workers_end_with_a_killed_server_process(tmp_path: Any) -> None:
    """A server killed with SIGKILL cannot stop its workers: they notice and end by themselves."""
    import subprocess
    import sys

    code = (
        "import os, sys; from app.infra.bot_pool import WorkerProcesses; "
        "pool = WorkerProcesses(1, 0).executor(); "
        "print(pool.submit(os.getpid).result(60), flush=True); "
        "sys.stdin.read()"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        server.kill()
        server.wait(10)
        limit = time.monotonic() + 30
        while _alive(worker):
            assert time.monotonic() < limit, "the worker outlived its server"
            time.sleep(0.1)
    finally:
        if server.poll() is None:
            server.kill()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
