"""The bot runner: plays every bot seat's decisions, in each server process.

After each committed change (the Notifier hook), at startup and on a slow sweep, a game whose
seat to act is held by a bot gets one driver task here. A move committed in this process says
itself whether a bot is to act (and hands over the new state), so games without bots cost the
runner nothing, and a bot's turn right after a move needs no read. Otherwise the driver reads
the state at version v, lets the bot choose in a worker process (app/infra/bot_pool.py: niced,
at most one decision per worker at a time, first come first served, so bots can never starve
people's moves) while the configured delay runs, then commits through the one road
(app/services/play/road.py) against v, exactly as a person's move. Several processes may drive
the same game: the optimistic version check lets one move win and the others see
`stale_version`, re-read and carry on. Nothing here is state that must survive a crash: the
database says whose turn it is.

A game of bots nobody attends is paused: when every seat is played by a bot and no seat's owner
has been seen for `pause_after_s` (presence.attended: a request, an open socket), its bots stop
at the next decision; they go on within `resume_check_s` of an owner coming back (their page
open), and the sweep finds paused games after a restart the same way. The game stays live.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

import app.engine as rules
from app.db.errors import is_unavailable
from app.infra.bot_pool import Decision, DecisionPool, WorkerProcesses
from app.metrics import BOT_DECISION
from app.services.botseats.attendance import Attendance
from app.services.play.games import load_state
from app.services.play.road import MoveRoad
from app.services.tables.lobby import get_game
from app.services.tables.seats import bot_games_to_act, claim_bot_turn
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known, MoveCommand

log = logging.getLogger(__name__)

Json = dict[str, Any]

MAX_FAILURES = 5  # refused or crashed moves in a row before a game waits for the next poke
RETRY_S = 0.5  # first back-off after a failure; doubles each time
# While the database is away the runner keeps trying, at least this often: bots resume within
# about a second of its return instead of waiting for the next sweep.
UNAVAILABLE_RETRY_MAX_S = 0.5
# Codes that only mean "the game moved on without us": re-read, nothing went wrong.
MOVED_ON = {"stale_version", "game_over", "not_started", "not_your_turn"}


@dataclass
class Turn:
    """One bot decision to make: what the bot may see and choose from at `version`."""

    game_id: int
    seat: int
    version: int
    level: str
    view: Json
    legal: list[Json]
    known: Known | None = None  # the state from memory (a move committed here), for submitting


@dataclass
class RunnerStats:
    """Counters for logs, tests and benchmarks."""

    moves: int = 0
    stale: int = 0
    fallbacks: int = 0
    failures: int = 0
    think_s: list[float] = field(default_factory=list)


class BotRunner:
    """Drives bot seats for the games of one database; start/stop with the app's lifespan."""

    def __init__(
        self,
        road: MoveRoad,
        *,
        delay_s: float = 0.8,
        budget_s: float | None = None,
        sweep_s: float = 30.0,
        processes: int = 0,
        nice: int = 10,
        pause_after_s: float = 0.0,
        resume_check_s: float = 2.0,
        workers: WorkerProcesses | None = None,
    ) -> None:
        self.road = road  # the bots' moves take the same road as everyone's
        self.sessions = sessions = road.sessions
        assert road.notifier is not None, "the runner listens to the road's commits"
        self.notifier = road.notifier
        self.delay_s = max(0.0, delay_s)
        self.budget_s = budget_s
        self.sweep_s = sweep_s
        # The context's worker processes (shared with the hints); else a set of this runner's
        # own, and with 0 processes, decisions in threads of this process.
        self.pool = DecisionPool(workers or WorkerProcesses(processes, nice))
        self.attendance = Attendance(sessions, pause_after_s, resume_check_s)
        self.stats = RunnerStats()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._force_random: set[int] = set()
        # game id -> the newest move committed here, when a bot is to act after it.
        self._moves: dict[int, Committed] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._resumer: asyncio.Task[None] | None = None
        # (game id, version) -> may this process decide that turn? Worker processes share one
        # (app/worker.py), so of several workers poked about a turn only one spends the CPU;
        # its lease runs out if it dies, and the next sweep elsewhere takes the turn.
        self.turn_lease: Callable[[int, int], Awaitable[bool]] | None = None

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen for commits and resume every game waiting for a bot (at app startup)."""
        if self.loop is not None:
            return
        self.loop = asyncio.get_running_loop()
        self.pool.start()
        self.notifier.on_game_changed.append(self._on_game_changed)
        self._sweeper = self.loop.create_task(self._sweep_forever())
        if self.attendance.enabled:
            self._resumer = self.loop.create_task(self.attendance.resume_forever(self.poke))

    async def stop(self) -> None:
        """Stop listening and cancel every driver (at app shutdown); a move in flight may land."""
        if self.loop is None:
            return
        with contextlib.suppress(ValueError):
            self.notifier.on_game_changed.remove(self._on_game_changed)
        background = [t for t in (self._sweeper, self._resumer) if t is not None]
        tasks = [*self._drivers.values(), *background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drivers.clear()
        self.pool.stop()
        self.loop = None

    async def idle(self, timeout: float = 10.0) -> bool:
        """Wait until no game is being driven (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._drivers:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    # --- scheduling ------------------------------------------------------------------------

    def _on_game_changed(self, game_id: int, _version: int, move: Committed | None) -> None:
        """Notifier hook: runs in the committing thread, so hop onto our loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if move is not None and move.bot_to_act is None:
            return  # a person (or nobody) is to act: nothing for the bots to do
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
            loop.call_soon_threadsafe(self._poke_after, game_id, move)

    def _poke_after(self, game_id: int, move: Committed | None) -> None:
        if move is not None:
            latest = self._moves.get(game_id)
            if latest is None or latest.version < move.version:
                self._moves[game_id] = move
        self.poke(game_id)

    def poke(self, game_id: int) -> None:
        """Look at `game_id` soon (on the loop thread); one driver per game and process."""
        if self.loop is None:
            return
        if game_id in self._drivers:
            self._dirty.add(game_id)  # the driver re-reads before it stops
            return
        # Looked at afresh (a change, a sweep): paused again if still nobody is there.
        self.attendance.paused.pop(game_id, None)
        self._drivers[game_id] = self.loop.create_task(self._drive(game_id))

    async def _sweep_forever(self) -> None:
        # The first pass resumes games left waiting for a bot by a restart; later passes pick
        # up turns whose driving instance died (nobody else was notified of its commit).
        while True:
            try:
                ids = await to_thread.run_sync(self._games_to_act)
            except Exception:
                log.exception("bot sweep failed")
                ids = []
            for game_id in ids:
                if game_id not in self.attendance.paused:
                    self.poke(game_id)
            if self.sweep_s <= 0:
                return
            await asyncio.sleep(self.sweep_s)

    def _games_to_act(self) -> list[int]:
        """Games a bot must act in; those nobody attends are marked paused, not returned."""
        with self.sessions() as db:
            ids = bot_games_to_act(db)
        if not self.attendance.enabled or not ids:
            return ids
        found = self.attendance.present(ids)
        for game_id in ids:
            if found.get(game_id) is False:
                self.attendance.pause(game_id)
        return [i for i in ids if found.get(i) is not False]

    # --- driving one game ------------------------------------------------------------------

    async def _drive(self, game_id: int) -> None:
        failures = 0
        away = 0  # attempts in a row that found the database unavailable
        try:
            while True:
                self._dirty.discard(game_id)
                try:
                    moved = await self._step(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if is_unavailable(exc):
                        # Not the bot's fault: keep trying, soon, until the database is back.
                        away += 1
                        if away == 1:
                            log.warning(
                                "bot move in game %s: database unavailable: %s", game_id, exc
                            )
                        await asyncio.sleep(min(UNAVAILABLE_RETRY_MAX_S, RETRY_S * away))
                        continue
                    # A bug in a bot or the engine: log, back off, retry (the next try falls
                    # back to a random legal action); never kill the runner.
                    failures += 1
                    self.stats.failures += 1
                    log.exception("bot move in game %s failed (%d in a row)", game_id, failures)
                    if failures >= MAX_FAILURES:
                        return
                    self._force_random.add(game_id)
                    await asyncio.sleep(RETRY_S * 2 ** (failures - 1))
                    continue
                away = 0
                if moved:
                    failures = 0
                elif game_id not in self._dirty:
                    return
        finally:
            self._drivers.pop(game_id, None)
            self._force_random.discard(game_id)
            self._moves.pop(game_id, None)
            self.attendance.forget(game_id)

    async def _step(self, game_id: int) -> bool:
        """One decision if a bot must make one: True if we moved (or lost a race), else False."""
        assert self.loop is not None
        began = self.loop.time()
        # The slot is taken before the turn is built: at most one turn per worker is held.
        async with self.pool.slot():
            turn = self._turn_from_memory(game_id)
            if turn is None:
                turn = await to_thread.run_sync(self._read_turn, game_id)
            if turn is None:
                return False
            if not await self.attendance.plays_on(game_id):
                return False
            if self.turn_lease is not None and not await self.turn_lease(game_id, turn.version):
                return False  # another worker is deciding this turn
            action = await self._decide(turn, game_id in self._force_random)
        # The delay runs while the bot thinks: a slow expert is not slowed down further.
        remaining = self.delay_s - (self.loop.time() - began)
        if remaining > 0:
            await asyncio.sleep(remaining)
        away = 0
        while True:
            try:
                await to_thread.run_sync(self._submit, turn, action)
                break
            except Exception as exc:
                if not is_unavailable(exc):
                    raise
                # The database is away: keep the decision and try it again soon (the version
                # check refuses it harmlessly if the game moved on meanwhile).
                away += 1
                if away == 1:
                    log.warning("bot move in game %s: database unavailable: %s", game_id, exc)
                await asyncio.sleep(min(UNAVAILABLE_RETRY_MAX_S, RETRY_S * away / 2))
        self._force_random.discard(game_id)
        return True

    def _turn_from_memory(self, game_id: int) -> Turn | None:
        """The bot's turn straight from a move committed here (no read), if that is the newest."""
        move = self._moves.pop(game_id, None)
        if move is None or move.bot_to_act is None or move.to_act is None:
            return None
        seat, level = move.to_act, move.bot_to_act
        legal = rules.legal_actions(move.state, seat)
        if not legal:
            return None
        known = Known(move.state, seat, move.bots, move.clock.get("mode", "none") != "none")
        return Turn(
            game_id, seat, move.version, level, rules.view_for(move.state, seat), legal, known
        )

    def _read_turn(self, game_id: int) -> Turn | None:
        with self.sessions() as db:
            game = get_game(db, game_id)
            if game.status != "live" or game.to_act is None:
                return None
            row = game.seats[game.to_act]
            if row.bot_level is None:
                return None
            state = load_state(db, game)
            legal = rules.legal_actions(state, row.seat)
            if not legal:
                raise RuntimeError(f"seat {row.seat} of game {game_id} must act but has no action")
            return Turn(
                game_id,
                row.seat,
                game.version,
                row.bot_level,
                rules.view_for(state, row.seat),
                legal,
                Known(
                    state,
                    row.seat,
                    tuple(s.bot_level for s in game.seats),
                    game.clock is not None,
                ),
            )

    async def _decide(self, turn: Turn, force_random: bool = False) -> Json:
        """The bot's choice; a random legal action if the bot fails or answers out of the list."""
        seed = secrets.randbits(64)
        if force_random:  # after a failed move: no bot, no worker
            self.stats.fallbacks += 1
            decision = Decision(random.Random(seed).choice(turn.legal), 0.0)
        else:
            decision = await self.pool.decide(
                turn.level, turn.view, turn.legal, self.budget_s, seed
            )
            if decision.error is not None:
                self.stats.fallbacks += 1
                log.warning(
                    "bot %s in game %s seat %s failed, playing a random legal action: %s",
                    turn.level,
                    turn.game_id,
                    turn.seat,
                    decision.error,
                )
        self.stats.think_s.append(decision.think_s)
        BOT_DECISION.labels(level=turn.level).observe(decision.think_s)
        del self.stats.think_s[:-1000]
        return decision.action

    def _submit(self, turn: Turn, action: Json) -> None:
        command = MoveCommand(turn.game_id, turn.version, action, seat=turn.seat, known=turn.known)
        with self.sessions() as db:
            try:
                # Hold the seat while moving so a reclaim cannot be overtaken by this move.
                if not claim_bot_turn(db, turn.game_id, turn.seat):
                    return
                self.road.commit_in(db, command)
            except ServiceError as exc:
                db.rollback()
                if exc.code in MOVED_ON:
                    self.stats.stale += 1
                    return  # someone (another instance, a human) moved first: re-read
                raise RuntimeError(f"the engine refused a bot's move: {exc}") from exc
            finally:
                db.rollback()  # no-op after the commit; releases the seat lock on any error
        self.stats.moves += 1


def runner_for(context: Any, settings: Any) -> BotRunner:
    """A runner for the app's context (its road, its worker processes), configured by the
    `SEADRAGONS_BOT_*` settings."""
    return BotRunner(
        context.road,
        delay_s=settings.bot_delay_seconds,
        budget_s=settings.bot_budget_seconds,
        sweep_s=settings.bot_sweep_seconds,
        pause_after_s=settings.bot_pause_after_seconds,
        resume_check_s=settings.bot_resume_check_seconds,
        workers=context.bot_workers,
    )
