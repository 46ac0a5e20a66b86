"""The one road every move takes, whatever its origin: a socket, HTTP, a bot, a timed-out
turn's stand-in. A `MoveCommand` goes in, a `Committed` move comes out, or a ServiceError that
says why nothing changed.

    decide      the engine on the state the caller holds (`Known`), else on the game as read
    write       one conditional UPDATE (version, status, the seat still the mover's) and the
                move's row; alone when nothing else is written (`decide.writes_alone`), else in
                the session with the clock, the "left" mark and the finish's effects
    refusal     an UPDATE that matched nothing is worded from one read of the game: the version
                taken, the game over, the seat changed hands; the move is never run again
    committed   metrics, the state cache, then the after-commit listeners (the live core's one
                listener fans it out; the bot runner reacts)

Where the write runs is chosen once, when the road is built: with a loop writer (Postgres), a
move that writes alone and comes from the event loop is written there (`commit`); every other
move runs `commit_in` in a worker thread or in the caller's session.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from app.db.models.games import Game
from app.i18n import t_
from app.infra import move_write
from app.infra import turn_notices as notices
from app.infra.threads import in_thread
from app.metrics import MOVE_LATENCY, MOVES_APPLIED
from app.services.play.decide import Decision, decide, move_row, writes_alone
from app.services.play.effects import MoveEffects
from app.services.play.games import bots_of, check_playable, load_state, stale
from app.services.tables import clocks, presence
from app.services.tables.lobby import get_game, seat_of, visible_game
from app.shared.clock import clock_in
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known, MoveCommand
from app.shared.notify import Notifier, notify
from app.shared.state_cache import states_in

if TYPE_CHECKING:
    from app.infra.async_move_write import AsyncMoveWriter

Run = Callable[..., Awaitable[Any]]


class MoveRoad:
    """Commits moves for one database; built once, at start-up (app/context.py)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        notifier: Notifier | None = None,
        effects: MoveEffects | None = None,
        writer: move_write.MoveWriter | None = None,
        loop_writer: AsyncMoveWriter | None = None,
        run: Run = in_thread,
    ) -> None:
        self.sessions = sessions
        self.notifier = notifier
        self.effects = effects or MoveEffects()
        self.clock = clock_in(sessions)  # the context's, as every session's
        self.cache = states_in(sessions)
        # The move's statements alone on a pooled driver connection (no Session), and, on
        # Postgres, from the event loop: both chosen here, once.
        self.alone_writer = writer or move_write.MoveWriter(sessions.kw["bind"])
        self.loop_writer = loop_writer
        self.run = run

    # --- the entries -------------------------------------------------------------------------

    async def commit(self, command: MoveCommand) -> Committed:
        """Commit `command` from the event loop: written there when it writes alone and the
        road has a loop writer, else through `commit_in` in a worker thread."""
        known = command.known
        decision = None
        if self.loop_writer is not None and known is not None and command.user_id is not None:
            began = time.perf_counter()
            now = self.clock.now()
            decision = decide(known.state, command.action, known.seat, command.version, now)
            if writes_alone(decision, known.clocked, command.back):
                row = move_row(
                    command.game_id, known.seat, command.version, command.user_id,
                    known.state, decision, now,
                )  # fmt: skip
                try:
                    moved = await self.loop_writer.write(row)
                except IntegrityError:  # the unique (game_id, seq): another move took it
                    raise stale(command.game_id, command.version) from None
                if not moved:
                    raise await self.run(self._refusal_read, command)
                return self._committed(command, known.seat, decision, row, known.bots, None, began)
        return await self.run(self._commit_in_new_session, command, decision)

    def commit_in(
        self, db: Session, command: MoveCommand, decision: Decision | None = None
    ) -> Committed:
        """Commit `command` in `db` (a worker thread's, a request's, a bot's session); returns
        once the move is durable. `decision`: the engine's verdict if already reached."""
        began = time.perf_counter()
        now = self.clock.now()
        game_id, version = command.game_id, command.version
        known, game = command.known, None
        if known is None:
            game = self._read_for(db, command)
            seat = command.seat if command.seat is not None else self._seat_of(game, command)
            known = Known(load_state(db, game), seat, bots_of(game), game.clock is not None)
        seat, bots = known.seat, known.bots
        if decision is None:
            decision = decide(known.state, command.action, seat, version, now)
        plan = None
        if known.clocked:
            # The clock is planned from the row as it is under our lock, never from an earlier
            # read: a timeout claim (deadlines.py) holding the row changes the seat and the
            # clock, and the UPDATE below would not see that after waiting for the row.
            game = self._locked_game(db, command)
            bots = bots_of(game)
            if game.clock is not None:
                plan = clocks.plan_move(game, known.state, decision.state, seat, now)
                decision.values.update(plan.values)
        timeout = plan is not None and plan.timeout
        # The turn notice goes with the move's statements, unless the clock's record writes it.
        row = move_row(
            game_id, seat, version, command.user_id, known.state, decision, now, timeout,
            notice=plan is None,
        )  # fmt: skip
        alone = writes_alone(decision, plan is not None, command.back) and not db.in_transaction()
        try:
            moved = self.alone_writer.write_alone(row) if alone else _write_in_session(db, row)
        except IntegrityError:  # the unique (game_id, seq): another move took this version
            db.rollback()
            raise stale(game_id, version) from None
        if not moved:
            db.rollback()
            raise self._refusal_read(command)
        if not alone:
            if command.back:
                presence.back_in(db, game_id, seat)  # a move ends a "left" mark
            if decision.finished:
                self.effects.finished(db, game_id)  # committed with the finish, or not at all
            if plan is not None:
                assert game is not None
                clocks.record(db, game, plan)  # a seat borrowed for a timed-out turn; notice
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                raise stale(game_id, version) from None
        if plan is not None and plan.release is not None:  # the borrowing bot gave it back
            bots = tuple(None if i == plan.release else b for i, b in enumerate(bots))
        clock = decision.values.get("clock", game.clock if game is not None else None)
        return self._committed(command, seat, decision, row, bots, clock, began, timeout)

    # --- the steps ---------------------------------------------------------------------------

    def _commit_in_new_session(self, command: MoveCommand, decision: Decision | None) -> Committed:
        with self.sessions() as db:
            return self.commit_in(db, command, decision)

    def _read_for(self, db: Session, command: MoveCommand) -> Game:
        """The game as the mover may see it, playable at the command's version."""
        if command.user_id is not None:
            game = visible_game(db, command.game_id, command.user_id)
        else:
            game = get_game(db, command.game_id)
        if command.user_id is not None:
            self._seat_of(game, command)  # a seat they no longer hold says so first
        check_playable(game, command.version)
        return game

    @staticmethod
    def _seat_of(game: Game, command: MoveCommand) -> int:
        """The mover's seat, refused if they hold none or a bot plays it now."""
        row = seat_of(game, command.user_id)
        if row is None:
            raise ServiceError(
                "not_seated", t_("you have no seat in game {id}", id=command.game_id)
            )
        if row.bot_level is not None:
            raise ServiceError("seat_has_bot", "a bot is playing your seat; take it back first")
        return row.seat

    def _locked_game(self, db: Session, command: MoveCommand) -> Game:
        """The game and its seats read afresh, its row locked until the move's transaction ends
        (Postgres `FOR UPDATE`; SQLite serialises writers, so it needs no lock), and refused
        here, with the reason found, if it moved on or the seat changed hands."""
        game = db.scalar(
            select(Game)
            .where(Game.id == command.game_id)
            .options(selectinload(Game.seats))
            .with_for_update(of=Game)
            .execution_options(populate_existing=True)
        )
        try:
            if game is None:
                raise ServiceError(
                    "not_found", t_("there is no game {game_id}", game_id=command.game_id)
                )
            check_playable(game, command.version)
            if command.user_id is not None:
                self._seat_of(game, command)
        except ServiceError:
            db.rollback()  # releases the lock
            raise
        return game

    def _refusal_read(self, command: MoveCommand) -> ServiceError:
        """Why the database refused a move decided on a known state: one read of the game,
        worded where it is found (never by running the move again)."""
        with self.sessions() as db:
            try:
                self._read_for(db, command)
            except ServiceError as exc:
                return exc
        # Playable at the version and still theirs as read now: another move took the version
        # between the write and this read.
        return stale(command.game_id, command.version)

    def _committed(
        self,
        command: MoveCommand,
        seat: int,
        decision: Decision,
        row: move_write.MoveRow,
        bots: tuple[str | None, ...],
        clock: Any,
        began: float,
        timeout: bool = False,
    ) -> Committed:
        """After the commit: the metrics, the state cache, the committed move, and the
        after-commit listeners."""
        MOVE_LATENCY.observe(time.perf_counter() - began)
        MOVES_APPLIED.inc()
        version = row.seen + 1
        self.cache.put(command.game_id, version, decision.state)
        committed = Committed(
            command.game_id,
            version,
            seat,
            decision.state,
            decision.events,
            decision.status,
            decision.to_act,
            bots,
            clocks.public(clock),
            timeout,
            row.move["action"],
            row.move["created_at"].isoformat(),
            command.user_id,
            command.action_id,
        )
        notify(self.notifier, command.game_id, version, committed)
        return committed


def _write_in_session(db: Session, row: move_write.MoveRow) -> bool:
    """The move's statements in the Session's transaction (not committed); False if the UPDATE
    matched nothing."""
    check_owner = row.owner is not None
    columns = tuple(row.values)
    if db.get_bind().dialect.name == "postgresql":
        params = row.update_params() | {f"m_{k}": v for k, v in row.move.items()}
        notice = row.notice is not None
        if notice:
            params |= row.notice_params()
        statement = move_write.postgres_statement(check_owner, columns, notice)
        return db.execute(statement, params).first() is not None
    result = db.execute(move_write.update_statement(check_owner, columns), row.update_params())
    if result.rowcount != 1:
        return False
    db.execute(move_write.INSERT_MOVE, {"game_id": row.game_id, **row.move})
    if row.notice is not None:
        notices.enqueue_turn_by_seat(db, row.game_id, *row.notice)
    return True
