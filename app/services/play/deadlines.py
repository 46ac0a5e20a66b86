"""The deadline sweep: one scheduler for any number of server instances.

Every instance runs a `DeadlineSweeper`. Each pass claims, one game per transaction, the live
games whose `due_at` has passed while a person plays the seat to act, and acts on each exactly
once however many instances sweep the same database:

- Postgres: `SELECT ... FOR UPDATE SKIP LOCKED` on the game row, so two sweeps never wait for or
  claim the same game; the seat row is then locked the same way (never waited for, so the order
  game -> seat cannot deadlock with `seats.leave_game`, which locks seat -> game).
- SQLite: a plain transaction; the claiming UPDATE takes the database's write lock and re-checks
  `due_at` under it.

Acting on a timeout, in the claiming transaction: `due_at` is cleared, the clock records which
turn ran out (`autoplay`), and a bot (`SEADRAGONS_CLOCK_BOT_LEVEL`) takes the seat. After the
commit, the bot runner plays the rest of the turn like any bot turn; those moves are marked
`timeout`. When the turn ends the bot gives the seat back (clocks.plan_move), unless this was the
`SEADRAGONS_CLOCK_TIMEOUTS_TO_BOT`-th timed-out turn in a row: then it keeps it until the owner
reclaims it. A daily table with a grace (clocks.py) is due only `grace` seconds after the turn's
deadline, and its bot keeps the seat at once: the player had the grace, and the bot replaces
them until they take the seat back. A player on vacation is never due (vacations.py pushes the
deadline); should a due game's player be away all the same, the claim only moves `due_at` to
their return. A claim and a move of the owner lock the game row, so exactly one of them wins:
a move waiting for a claim is refused (`seat_has_bot`); a claim finding the row being moved skips
the game until the next pass, when the move has moved the clock on.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from anyio import to_thread
from sqlalchemy import and_, select, true, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.games import Game, Seat
from app.infra.loop_task import LoopTask
from app.services.tables import clocks
from app.shared.clock import clock_in
from app.shared.notify import Notifier, notify

log = logging.getLogger(__name__)

MAX_PER_PASS = 100  # timeouts acted on per pass and instance; the rest wait for the next pass


@dataclass(frozen=True)
class Timeout:
    """A claimed timeout: the game, the turn and seat that ran out, and whether the bot stays."""

    game_id: int
    version: int
    turn: int
    seat: int
    keep: bool


def _due(now: datetime, skip: set[int]) -> Any:
    """The oldest due game whose seat to act a person plays."""
    return (
        select(Game.id)
        .join(Seat, and_(Seat.game_id == Game.id, Seat.seat == Game.to_act))
        .where(
            Game.status == "live",
            Game.due_at.is_not(None),
            Game.due_at <= now,
            Seat.bot_level.is_(None),
            Game.id.not_in(skip) if skip else true(),
        )
        .order_by(Game.due_at, Game.id)
        .limit(1)
    )


def claim_timeout(
    db: Session, now: datetime, bot_level: str, timeouts_to_bot: int, skip: set[int]
) -> Timeout | int | None:
    """Claim one due game and hand its turn to a bot; commits.

    Returns the Timeout, None when nothing is due, or a game id that could not be claimed right
    now (a seat row locked by someone else; the caller skips it until the next pass).
    """
    postgres = db.get_bind().dialect.name == "postgresql"
    query = _due(now, skip)
    if postgres:
        query = query.with_for_update(of=Game, skip_locked=True)
    game_id = db.scalar(query)
    if game_id is None:
        db.rollback()
        return None
    # The claim: on SQLite this UPDATE takes the write lock and re-checks under it; on Postgres
    # the row is already ours. Either way exactly one transaction sees rowcount 1.
    claimed = db.execute(
        update(Game)
        .where(Game.id == game_id, Game.status == "live", Game.due_at <= now)
        .values(due_at=None)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        db.rollback()
        return game_id
    game = db.get(Game, game_id, populate_existing=True)
    assert game is not None and game.clock is not None and game.to_act is not None
    seat_q = select(Seat).where(Seat.game_id == game_id, Seat.seat == game.to_act)
    if postgres:
        seat_q = seat_q.with_for_update(of=Seat, skip_locked=True)
    seat = db.scalar(seat_q.execution_options(populate_existing=True))
    if seat is None or seat.bot_level is not None:
        db.rollback()  # being changed (or a bot took it meanwhile): look again next pass
        return game_id
    clock = copy.deepcopy(game.clock)
    if clock.get("seat") != seat.seat or clock.get("turn") is None:
        db.rollback()
        log.error("game %s: clock says seat %s, the game seat %s", game_id, clock, seat.seat)
        return game_id
    back = clocks.away_until(clock, seat.seat, now)
    if back is not None:  # on vacation: look again once they are back
        game.due_at = clocks.due_of(clock, back)
        db.commit()
        return game_id
    graced = clock.get("mode") == "daily" and clock.get("grace", 0) > 0
    keep = graced or clock["timeouts"][seat.seat] + 1 >= timeouts_to_bot
    clock["autoplay"] = {"turn": clock["turn"], "seat": seat.seat, "keep": keep}
    game.clock = clock
    seat.bot_level = bot_level
    timeout = Timeout(game.id, game.version, clock["turn"], seat.seat, keep)
    db.commit()
    return timeout


class DeadlineSweeper(LoopTask):
    """Sweeps for timed-out turns every `every_s` seconds; start/stop with the app's lifespan (a
    claim in flight at the stop completes or rolls back)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        notifier: Notifier,
        *,
        every_s: float = 1.0,
        bot_level: str = "greedy",
        timeouts_to_bot: int = 2,
    ) -> None:
        self.sessions = sessions
        self.notifier = notifier
        self.every_s = every_s
        self.bot_level = bot_level
        self.timeouts_to_bot = timeouts_to_bot
        self.claimed: list[Timeout] = []  # this instance's claims (logs and tests)

    async def _run(self) -> None:
        while True:
            try:
                await to_thread.run_sync(self.sweep)
            except Exception:
                log.exception("deadline sweep failed")  # the database away: try next pass
            await asyncio.sleep(self.every_s)

    def sweep(self, now: datetime | None = None) -> list[Timeout]:
        """One pass: claim and act on every due game (up to MAX_PER_PASS); returns the claims."""
        now = now or clock_in(self.sessions).now()
        skip: set[int] = set()
        done: list[Timeout] = []
        while len(done) + len(skip) < MAX_PER_PASS:
            with self.sessions() as db:
                result = claim_timeout(db, now, self.bot_level, self.timeouts_to_bot, skip)
            if result is None:
                break
            if isinstance(result, int):
                skip.add(result)
                continue
            done.append(result)
            self.claimed.append(result)
            log.info(
                "clock: game %s seat %s ran out of time on turn %s; a %s bot plays it%s",
                result.game_id,
                result.seat,
                result.turn,
                self.bot_level,
                " and keeps the seat" if result.keep else "",
            )
            notify(self.notifier, result.game_id, result.version)  # the bot runner plays now
        return done


def sweeper_for(
    sessions: sessionmaker[Session], notifier: Notifier, settings: Any
) -> DeadlineSweeper:
    """A sweeper configured by the `SEADRAGONS_CLOCK_*` settings."""
    from app.services.tables.seats import check_level

    return DeadlineSweeper(
        sessions,
        notifier,
        every_s=settings.clock_sweep_seconds,
        bot_level=check_level(settings.clock_bot_level),
        timeouts_to_bot=settings.clock_timeouts_to_bot,
    )
