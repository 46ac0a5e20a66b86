"""Playing: the caller's view, submitting actions (one path for HTTP and WebSocket), the log."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models import Game, Move, utcnow
from app.metrics import MOVE_LATENCY, MOVES_APPLIED
from app.services.cache import cache_for
from app.services.errors import ServiceError
from app.services.lobby import get_game, seat_of, visible_game
from app.services.names import seat_name
from app.services.notify import Notifier, notify


def load_state(db: Session, game: Game) -> Any:
    """The engine state of a started game at its version (cached, else from its snapshot)."""
    if game.snapshot is None:
        raise ServiceError("not_started", f"game {game.id} has not started")
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
    return {
        "game_id": game.id,
        "version": game.version,
        "status": game.status,
        "seat": seat,
        "to_act": game.to_act,
        "view": rules.view_for(state, seat),
        "legal_actions": rules.legal_actions(state, acting) if acting is not None else [],
    }


def submit_action(
    db: Session,
    game_id: int,
    user_id: int,
    version: int,
    action: dict[str, Any],
    *,
    notifier: Notifier | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """Apply `action` for the caller's seat against `version`; returns (new version, events).

    The events are filtered for the caller (R-60). Raises ServiceError; a refused action changes
    nothing. The reply may only be sent after this returns: by then the move is committed.
    """
    game = visible_game(db, game_id, user_id)
    seat = seat_of(game, user_id)
    if seat is None:
        raise ServiceError("not_seated", f"you have no seat in game {game_id}")
    if seat.bot_level is not None:
        raise ServiceError("seat_has_bot", "a bot is playing your seat; take it back first")
    return _apply(db, game, seat.seat, version, action, notifier)


def submit_seat_action(
    db: Session,
    game_id: int,
    seat: int,
    version: int,
    action: dict[str, Any],
    *,
    notifier: Notifier | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """Apply `action` for `seat` without a user check: for bots that the server itself runs."""
    return _apply(db, get_game(db, game_id), seat, version, action, notifier)


def _apply(
    db: Session,
    game: Game,
    seat: int,
    version: int,
    action: dict[str, Any],
    notifier: Notifier | None,
) -> tuple[int, list[dict[str, Any]]]:
    if game.status == "open":
        raise ServiceError("not_started", f"game {game.id} has not started")
    if game.status != "live":
        raise ServiceError("game_over", f"game {game.id} is {game.status}")
    if version != game.version:
        raise ServiceError("stale_version", f"the game is at version {game.version}, not {version}")
    began = time.perf_counter()
    state = load_state(db, game)
    try:
        new_state, events = rules.apply(state, action, seat)
    except rules.EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None
    new_version = version + 1
    values: dict[str, Any] = {
        "version": new_version,
        "snapshot": rules.state_to_json(new_state),
        "to_act": rules.to_act(new_state),
    }
    if rules.is_over(new_state):
        values.update(
            status="finished", finished_at=utcnow(), final_scores=rules.final_scores(new_state)
        )
    # Optimistic concurrency: of two submissions against one version, exactly one matches here.
    # Works alike on SQLite and Postgres; the unique (game_id, seq) below is a second guard.
    result = db.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.rollback()
        raise ServiceError("stale_version", f"game {game.id} moved on past version {version}")
    # Stored canonical: replays read the log, and unknown fields are never kept.
    stored = rules.canonical_action(action)
    db.add(Move(game_id=game.id, seq=new_version, seat=seat, action=stored, events=events))
    try:
        db.commit()
    except IntegrityError:
        db.rollback()
        raise ServiceError("stale_version", f"game {game.id} is past version {version}") from None
    MOVE_LATENCY.observe(time.perf_counter() - began)
    MOVES_APPLIED.inc()
    cache_for(db.get_bind()).put(game.id, new_version, new_state)  # type: ignore[arg-type]
    notify(notifier, game.id, new_version)
    return new_version, [rules.event_for(ev, seat) for ev in events]


def game_log(
    db: Session,
    game_id: int,
    user_id: int | None,
    invite_code: str | None = None,
    since: int = 0,
) -> dict[str, Any]:
    """The move log with readable text; once the game is over, the full record (never the seed)."""
    game = visible_game(db, game_id, user_id, invite_code)
    moves = list(
        db.scalars(select(Move).where(Move.game_id == game_id, Move.seq > since).order_by(Move.seq))
    )
    over = game.status == "finished"
    # During the game each viewer sees public events plus their own secrets; after it, everything
    # but the seed.
    viewer = viewer_seat(game, user_id)
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
        }
        if over:
            entry["action"] = move.action  # actions can name secret cards: only after the end
        entries.append(entry)
    log: dict[str, Any] = {
        "game_id": game.id,
        "status": game.status,
        "version": game.version,
        "moves": entries,
    }
    if over:
        log["record"] = _record(game, names)
    return log


def _seat_names(game: Game) -> list[str]:
    return [seat_name(game.id, seat) for seat in game.seats]


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
