"""Playing: the caller's view, submitting actions (one path for HTTP and WebSocket), the log."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

import app.engine as rules
from app.db.models import Game, Move, utcnow
from app.i18n import t_
from app.infra import move_write
from app.infra.state_cache import cache_for
from app.metrics import MOVE_LATENCY, MOVES_APPLIED
from app.services.notices import turns as notices
from app.services.play import clocks
from app.services.ratings import results as ratings
from app.services.reviews import analysis
from app.services.tables import presence
from app.services.tables.lobby import get_game, seat_of, visible_game
from app.services.tables.names import names_key, seat_name
from app.services.watching import spectator_delay
from app.shared.errors import ServiceError
from app.shared.notify import Notifier, notify


def load_state(db: Session, game: Game) -> Any:
    """The engine state of a started game at its version (cached, else from its snapshot)."""
    if game.snapshot is None:
        raise ServiceError("not_started", t_("game {id} has not started", id=game.id))
    cache = cache_for(db.get_bind())  # type: ignore[arg-type]
    state = cache.get(game.id, game.version)
    if state is None:
        state = rules.state_from_json(game.snapshot)
        cache.put(game.id, game.version, state)
    return state


def viewer_seat(game: Game, user_id: int | None) -> int | None:
    """The seat whose secrets the caller may see, or None for a spectator."""
    seat = seat_of(game, user_id)
    return seat.seat if seat is not None else None


def game_state(
    db: Session, game_id: int, user_id: int | None, invite_code: str | None = None
) -> dict[str, Any]:
    """`{version, status, seat, to_act, view, legal_actions}` as the caller may see it (R-60)."""
    game = visible_game(db, game_id, user_id, invite_code)
    state = load_state(db, game)
    seat_row = seat_of(game, user_id)
    seat = seat_row.seat if seat_row is not None else None
    # While a bot holds the seat, its human owner watches (and may take the seat back later).
    acting = seat if seat_row is not None and seat_row.bot_level is None else None
    version, to_act, clock = game.version, game.to_act, clocks.public(game.clock)
    if seat is None:  # a spectator of a delayed table sees the game as it was (no clock then)
        seen = spectator_delay.spectator_version(db, game)
        if seen != version:
            state = spectator_delay.state_at(db, game, seen, state)
            version, to_act, clock = seen, rules.to_act(state), {"mode": "none"}
    return {
        "game_id": game.id,
        "version": version,
        "status": game.status,
        "seat": seat,
        "to_act": to_act,
        "view": rules.view_for(state, seat),
        "legal_actions": rules.legal_actions(state, acting) if acting is not None else [],
        "clock": clock,
    }


SOCKET = "socket"  # the origin of a move made over a socket (Committed.origin)


@dataclass(frozen=True)
class Committed:
    """A move just committed, with what in-process listeners need to fan it out unread."""

    game_id: int
    version: int  # the version this move produced
    seat: int
    state: Any  # the engine state at `version` (never mutated: safe to share)
    events: list[dict[str, Any]]  # full events, secrets included: filter with `events_for`
    status: str
    to_act: int | None
    bots: tuple[str | None, ...]  # per seat: the level of the bot playing it now, if any
    clock: dict[str, Any]  # the public turn clock at `version` (mode "none" if none)
    timeout: bool = False  # a bot played it because the seat's clock ran out
    action: dict[str, Any] | None = None  # canonical, as stored: replaying it gives `state`
    at: str | None = None  # when it was committed (ISO 8601), as the log says
    # Which road it came by: SOCKET moves are fanned out by the socket's own handler (the
    # mover's ack right behind its patch); every other move by the hub's after-commit hook.
    origin: str = "service"

    @property
    def bot_to_act(self) -> str | None:
        """The level of the bot that must decide now (None: a person, or nobody)."""
        if self.status != "live" or self.to_act is None or self.to_act >= len(self.bots):
            return None
        return self.bots[self.to_act]

    def events_for(self, viewer: int | None) -> list[dict[str, Any]]:
        """The events as `viewer` may see them (R-60)."""
        return [rules.event_for(ev, viewer) for ev in self.events]


@dataclass(frozen=True)
class Known:
    """What a caller already holds about the game at the submitted version (the fast path).

    The state at a version never changes, so a room's copy is as good as the database's; the
    seat's ownership is re-checked by the database in the same UPDATE that takes the version.
    """

    state: Any
    seat: int
    bots: tuple[str | None, ...]  # per seat: the level of the bot playing it, if any
    # Whether the game may have a turn clock: then the move reads the game row in
    # its transaction to move the clock. A table created without one never gets one.
    clocked: bool = True


def submit_action(
    db: Session,
    game_id: int,
    user_id: int,
    version: int,
    action: dict[str, Any] | rules.Action,
    *,
    notifier: Notifier | None = None,
    known: Known | None = None,
    back: bool = False,
    origin: str = "service",
) -> Committed:
    """Apply `action` for the caller's seat against `version`; the committed move.

    Raises ServiceError; a refused action changes nothing. The reply may only be sent after this
    returns: by then the move is committed. With `known` the game is not read at all: one
    conditional UPDATE checks the version, the status and the seat's owner at once, and only a
    refusal reads the game to say why. `back`: the mover's seat is marked "left"; the move
    clears that in its own transaction. `origin`: which road the move came by (Committed).
    """
    if known is not None:
        committed = _commit(
            db,
            game_id,
            known.seat,
            version,
            known.state,
            action,
            notifier,
            owner=user_id,
            bots=known.bots,
            clocked=known.clocked,
            back=back,
            origin=origin,
        )
        if committed is not None:
            return committed
    game = visible_game(db, game_id, user_id)
    seat = seat_of(game, user_id)
    if seat is None:
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    if seat.bot_level is not None:
        raise ServiceError("seat_has_bot", "a bot is playing your seat; take it back first")
    _check_playable(game, version)
    committed = _commit(
        db,
        game.id,
        seat.seat,
        version,
        load_state(db, game),
        action,
        notifier,
        owner=user_id,
        bots=_bots(game),
        game=game,
        back=back,
        origin=origin,
    )
    if committed is None:
        raise ServiceError(
            "stale_version",
            t_("game {id} moved on past version {version}", id=game.id, version=version),
        )
    return committed


def submit_seat_action(
    db: Session,
    game_id: int,
    seat: int,
    version: int,
    action: dict[str, Any] | rules.Action,
    *,
    notifier: Notifier | None = None,
    known: Known | None = None,
) -> Committed:
    """Apply `action` for `seat` without a user check: for bots that the server itself runs."""
    game = None
    if known is None:
        game = get_game(db, game_id)
        _check_playable(game, version)
        known = Known(load_state(db, game), seat, _bots(game))
    committed = _commit(
        db,
        game_id,
        seat,
        version,
        known.state,
        action,
        notifier,
        owner=None,
        bots=known.bots,
        clocked=known.clocked,
        game=game,
    )
    if committed is None:
        raise ServiceError(
            "stale_version",
            t_("game {game_id} moved on past version {version}", game_id=game_id, version=version),
        )
    return committed


def _bots(game: Game) -> tuple[str | None, ...]:
    return tuple(s.bot_level for s in game.seats)


def _check_playable(game: Game, version: int) -> None:
    if game.status == "open":
        raise ServiceError("not_started", t_("game {id} has not started", id=game.id))
    if game.status != "live":
        raise ServiceError("game_over", t_("game {id} is {status}", id=game.id, status=game.status))
    if version != game.version:
        raise ServiceError(
            "stale_version",
            t_(
                "the game is at version {version}, not {version2}",
                version=game.version,
                version2=version,
            ),
        )


def _locked_game(db: Session, game_id: int) -> Game:
    """The game and its seats read afresh, its row locked until the move's transaction ends
    (Postgres `FOR UPDATE`; SQLite serialises writers, so it needs no lock)."""
    game = db.scalar(
        select(Game)
        .where(Game.id == game_id)
        .options(selectinload(Game.seats))
        .with_for_update(of=Game)
        .execution_options(populate_existing=True)
    )
    if game is None:
        db.rollback()
        raise ServiceError("not_found", t_("there is no game {game_id}", game_id=game_id))
    return game


def _check_still_theirs(db: Session, game: Game, seat: int, owner: int) -> None:
    """Refuse, releasing the lock, if the seat changed hands since the caller looked."""
    row = next((s for s in game.seats if s.seat == seat), None)
    if row is None or row.user_id != owner:
        db.rollback()
        raise ServiceError("not_seated", t_("you have no seat in game {id}", id=game.id))
    if row.bot_level is not None:
        db.rollback()
        raise ServiceError("seat_has_bot", "a bot is playing your seat; take it back first")


@dataclass(frozen=True)
class Decision:
    """A move as the engine decided it, before anything is written."""

    action: rules.Action
    state: Any  # the new state
    events: list[dict[str, Any]]
    to_act: int | None
    status: str
    values: dict[str, Any]  # the game row's new values (version and snapshot among them)


def decide(state: Any, action: dict[str, Any] | rules.Action, seat: int, version: int) -> Decision:
    """The engine's verdict on `action` by `seat` at `version`; raises ServiceError (with the
    reason the engine gives) when it is illegal. Pure: nothing is read or written."""
    try:
        if not isinstance(action, rules.Action):
            action = rules.parse_action(action)  # once: the engine and the log take it as it is
        new_state, events = rules.apply(state, action, seat)
    except rules.EngineError as exc:
        why = rules.explain(state, seat, action)
        reason = why.to_json() if why is not None else None
        raise ServiceError(exc.code, exc.message, reason=reason) from None
    to_act = rules.to_act(new_state)
    status = "live"
    values: dict[str, Any] = {
        "version": version + 1,
        "snapshot": rules.state_to_json(new_state),
        "to_act": to_act,
    }
    if rules.is_over(new_state):
        status = "finished"
        values.update(
            status=status, finished_at=utcnow(), final_scores=rules.final_scores(new_state)
        )
    return Decision(action, new_state, events, to_act, status, values)


def move_row(
    game_id: int,
    seat: int,
    version: int,
    owner: int | None,
    before: Any,
    decision: Decision,
    timeout: bool = False,
    notice: bool = True,
) -> move_write.MoveRow:
    """What the move writes (`before`: the state it was decided on). `notice`: the turn notice
    goes with the move's statements (unless a clock's record writes it)."""
    turn_notice = None
    to_act, after = decision.to_act, decision.state
    if notice and to_act is not None and after.turn.number != before.turn.number:
        turn_notice = (to_act, after.turn.number)  # a turn starts: its "your turn" notice
    return move_write.MoveRow(
        game_id,
        version,
        seat,
        owner,
        decision.values,
        {
            "seq": version + 1,
            "seat": seat,
            "action": rules.canonical_action(decision.action),  # unknown fields never kept
            "events": decision.events,
            "created_at": utcnow(),
            "timeout": timeout,
        },
        turn_notice,
    )


def writes_alone(decision: Decision, clocked: bool, back: bool) -> bool:
    """Whether a move decided on a known state needs nothing written but its own statements:
    no turn clock to move, no "left" mark to clear, no finish with its results and review."""
    return not clocked and not back and decision.status != "finished"


def committed_move(
    engine: Any,
    game_id: int,
    seat: int,
    decision: Decision,
    row: move_write.MoveRow,
    bots: tuple[str | None, ...],
    clock: dict[str, Any],
    notifier: Notifier | None,
    began: float,
    origin: str,
    timeout: bool = False,
) -> Committed:
    """After the commit: the metrics, the process's state cache, the committed move, and the
    after-commit listeners."""
    MOVE_LATENCY.observe(time.perf_counter() - began)
    MOVES_APPLIED.inc()
    version = row.seen + 1
    cache_for(engine).put(game_id, version, decision.state)
    committed = Committed(
        game_id,
        version,
        seat,
        decision.state,
        decision.events,
        decision.status,
        decision.to_act,
        bots,
        clock,
        timeout,
        row.move["action"],
        row.move["created_at"].isoformat(),
        origin,
    )
    notify(notifier, game_id, version, committed)
    return committed


def _commit(
    db: Session,
    game_id: int,
    seat: int,
    version: int,
    state: Any,
    action: dict[str, Any] | rules.Action,
    notifier: Notifier | None,
    *,
    owner: int | None,
    bots: tuple[str | None, ...],
    clocked: bool = True,
    game: Game | None = None,
    back: bool = False,
    origin: str = "service",
) -> Committed | None:
    """Apply and store one move in one transaction; None if the database refused the version,
    status or seat (nothing changed). The engine runs first: an illegal action never writes.

    `game`: the row, if the caller read it. Else it is read here only for a game that may have
    a turn clock (`clocked`): a move of a game without one writes without reading anything.
    """
    began = time.perf_counter()
    decision = decide(state, action, seat, version)
    values, status = decision.values, decision.status
    # The turn clock: a turn that ends or starts moves it, in this same transaction.
    plan = None
    if (game is None and clocked) or (game is not None and game.clock is not None):
        # The clock is planned from the row as it is under our lock, never from an earlier
        # read: a timeout claim (deadlines.py) holding the row changes the seat and the clock,
        # and the UPDATE below would not see that after waiting for the row.
        game = _locked_game(db, game_id)
        if game.version != version or game.status != "live":
            db.rollback()
            return None
        if owner is not None:
            _check_still_theirs(db, game, seat, owner)
        bots = _bots(game)
    if game is not None and game.clock is not None:
        plan = clocks.plan_move(game, state, decision.state, seat, utcnow())
        values.update(plan.values)
    timeout = plan is not None and plan.timeout
    # The turn notice goes with the move's statements, unless the clock's record writes it.
    row = move_row(game_id, seat, version, owner, state, decision, timeout, notice=plan is None)
    # Optimistic concurrency: of two submissions against one version, exactly one matches in
    # the UPDATE. Works alike on SQLite and Postgres; the unique (game_id, seq) is a second guard.
    alone = game is None and not back and status != "finished" and not db.in_transaction()
    try:
        if alone:  # nothing else to write: the statements alone, without the Session
            moved = move_write.writer_for(db.get_bind()).write_alone(row)  # type: ignore[arg-type]
        else:
            moved = _write_in_session(db, row)
    except IntegrityError:  # the unique (game_id, seq): another move took this version
        db.rollback()
        raise stale(game_id, version) from None
    if not moved:
        db.rollback()
        return None
    if not alone:
        if back:
            presence.back_in(db, game_id, seat)  # as over HTTP: a move ends a "left" mark
        if status == "finished":
            # Its results and ratings: a job committed with the finish, or not at all.
            ratings.enqueue_results(db, game_id)
            analysis.enqueue(db, game_id)  # the game review, committed with the finish likewise
        if plan is not None:
            assert game is not None
            clocks.record(db, game, plan)  # a seat borrowed for a timed-out turn; turn notice
        try:
            db.commit()
        except IntegrityError:
            db.rollback()
            raise stale(game_id, version) from None
    if plan is not None and plan.release is not None:  # the borrowing bot gave the seat back
        bots = tuple(None if i == plan.release else b for i, b in enumerate(bots))
    clock = clocks.public(values.get("clock", game.clock if game is not None else None))
    engine = db.get_bind()
    return committed_move(
        engine, game_id, seat, decision, row, bots, clock, notifier, began, origin, timeout
    )


def stale(game_id: int, version: int) -> ServiceError:
    """The error of a move whose version another move took first."""
    return ServiceError(
        "stale_version",
        t_("game {game_id} is past version {version}", game_id=game_id, version=version),
    )


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


def game_log(
    db: Session,
    game_id: int,
    user_id: int | None,
    invite_code: str | None = None,
    since: int = 0,
) -> dict[str, Any]:
    """The move log with readable text; once the game is over, the full record (never the seed)."""
    game = visible_game(db, game_id, user_id, invite_code)
    viewer = viewer_seat(game, user_id)
    # A spectator of a delayed table reads the log only as far as the delay lets them see.
    upto = spectator_delay.spectator_version(db, game) if viewer is None else game.version
    moves = list(
        db.scalars(
            select(Move)
            .where(Move.game_id == game_id, Move.seq > since, Move.seq <= upto)
            .order_by(Move.seq)
        )
    )
    over = game.status == "finished"
    # During the game each viewer sees public events plus their own secrets; after it, everything
    # but the seed.
    names = _seat_names(game)
    entries = []
    for move in moves:
        events = move.events if over else [rules.event_for(ev, viewer) for ev in move.events]
        entry: dict[str, Any] = {
            "seq": move.seq,
            "seat": move.seat,
            "player": names[move.seat],
            "at": move.created_at.isoformat(),
            "events": events,
            "text": [rules.describe(ev) for ev in events],
            # The same lines as language-neutral pieces, worded by the reader's catalogue.
            "pieces": [rules.line(ev) for ev in events],
        }
        if move.timeout:  # a bot played this move: the seat's clock had run out
            entry["timeout"] = True
            entry["note"] = timeout_note(names[move.seat])
        if over:
            entry["action"] = move.action  # actions can name secret cards: only after the end
        entries.append(entry)
    log: dict[str, Any] = {
        "game_id": game.id,
        "status": game.status,
        "version": upto,
        "moves": entries,
    }
    if over:
        log["record"] = _record(game, names)
        timed_out = select(Move.seq).where(Move.game_id == game_id, Move.timeout).order_by(Move.seq)
        log["record"]["timeout_moves"] = list(db.scalars(timed_out))
    return log


def timeout_note(player: str) -> str:
    """The log's note on a move a bot made because the seat's clock ran out."""
    return f"{player} ran out of time: a bot played this move"


def _seat_names(game: Game) -> list[str]:
    return [seat_name(names_key(game), seat) for seat in game.seats]


def _record(game: Game, names: list[str]) -> dict[str, Any]:
    """Everything a replay needs except the seed: options, the dealt setup, scores."""
    initial = rules.new_game(rules.GameOptions.from_dict(game.options), game.seed)
    return {
        "options": game.options,
        "players": names,
        "setup": {
            "public": rules.view_for(initial, None),
            "seats": [rules.view_for(initial, seat) for seat in range(game.players)],
        },
        "final_scores": game.final_scores,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
