"""The app's context: everything a process builds once at start-up and hands down.

`build_context(settings)` connects to the database and builds the parts every road shares:
the session factory, the after-commit listeners, the clock, the effects a finished game sets
off, and the one road for moves. `create_app` keeps it as `app.state.context`; the HTTP routes,
the live core, the bot runner and the sweeps take what they need from it, never from a
module-level registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.db.session import engine_for, make_sessionmaker
from app.infra.async_move_write import AsyncMoveWriter
from app.infra.bot_pool import WorkerProcesses, default_processes
from app.infra.move_write import MoveWriter
from app.infra.threads import thread_runner
from app.services.play.effects import MoveEffects
from app.services.play.road import MoveRoad
from app.services.ratings import results as ratings
from app.services.reviews import requests as review_requests
from app.settings import Settings
from app.shared.clock import SYSTEM_CLOCK, Clock
from app.shared.notify import Notifier
from app.shared.passwords import Passwords


@dataclass
class AppContext:
    """One process's shared parts (see the module's docstring)."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    notifier: Notifier
    clock: Clock
    effects: MoveEffects
    road: MoveRoad
    run: Any  # blocking calls in worker threads, at most the database pool's size at once
    loop_writer: AsyncMoveWriter | None
    bot_workers: WorkerProcesses  # where bots and hints think: niced processes (or threads)

    async def close(self) -> None:
        """Release what the context opened (at shutdown)."""
        if self.loop_writer is not None:
            await self.loop_writer.close()
        self.bot_workers.shutdown()


def finish_effects(auto_review_below: int = 0) -> MoveEffects:
    """What a game's last move sets off in its transaction: its results and rating update,
    a durable job committed with the finish; and a rated game's review while fewer than
    `auto_review_below` wait (SEADRAGONS_REVIEW_AUTO_RATED_BELOW; 0: reviews on request only)."""
    effects = MoveEffects()
    effects.on_finish("results", ratings.enqueue_results)
    effects.on_finish("review", review_requests.auto_review(auto_review_below))
    return effects


def road_for(
    sessions: sessionmaker[Session],
    notifier: Notifier | None = None,
    *,
    writer: MoveWriter | None = None,
    loop_writer: AsyncMoveWriter | None = None,
    run: Any = None,
    auto_review_below: int = 0,
) -> MoveRoad:
    """The one road with this app's effects (tests and tools build theirs the same way)."""
    extra = {"run": run} if run is not None else {}
    return MoveRoad(
        sessions,
        notifier=notifier,
        effects=finish_effects(auto_review_below),
        writer=writer,
        loop_writer=loop_writer,
        **extra,
    )


def build_context(settings: Settings, clock: Clock = SYSTEM_CLOCK) -> AppContext:
    """Connect and build the shared parts, once per process."""
    engine = engine_for(settings)
    sessions = make_sessionmaker(
        engine,
        clock=clock,
        replay_cache_size=settings.replay_cache_games,
        hint_cache_size=settings.hint_cache_positions,
        passwords=Passwords(settings.password_hash_time_cost, settings.password_hash_memory_kib),
    )
    notifier = Notifier()
    run = thread_runner(settings.db_pool_size)
    writer = MoveWriter(engine)  # the move's statements, compiled once per process
    loop_writer = None
    if engine.dialect.name == "postgresql" and settings.db_loop_connections > 0:
        loop_writer = AsyncMoveWriter(engine, settings.db_loop_connections, statements=writer)
    road = road_for(
        sessions,
        notifier,
        writer=writer,
        loop_writer=loop_writer,
        run=run,
        auto_review_below=settings.review_auto_rated_below,
    )
    processes = settings.bot_processes
    workers = WorkerProcesses(
        default_processes() if processes is None else processes, settings.bot_nice
    )
    return AppContext(
        settings, engine, sessions, notifier, clock, road.effects, road, run, loop_writer, workers
    )
