"""Reading a game: the caller's view, the state at its version, the move log and record.

Moves are written by the one road (road.py); this module only reads."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.games import Game, Move
from app.i18n import t_
from app.services.tables import clocks
from app.services.tables.lobby import seat_of, visible_game
from app.services.tables.names import names_key, seat_name
from app.services.watching import spectator_delay
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.state_cache import states_of


def load_state(db: Session, game: Game) -> Any:
    """The engine state of a started game at its version (cached, else from its snapshot)."""
    if game.snapshot is None:
        raise ServiceError("not_started", t_("game {id} has not started", id=game.id))
    cache = states_of(db)
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
    version, to_act = game.version, game.to_act
    clock = clocks.public(game.clock, now_in(db))
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


def bots_of(game: Game) -> tuple[str | None, ...]:
    """Per seat: the level of the bot playing it now, if any."""
    return tuple(s.bot_level for s in game.seats)


def check_playable(game: Game, version: int) -> None:
    """Refuse a move on a game that is not live, or against another version than its own."""
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


def stale(game_id: int, version: int) -> ServiceError:
    """The error of a move whose version another move took first."""
    return ServiceError(
        "stale_version",
        t_("game {game_id} is past version {version}", game_id=game_id, version=version),
    )


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
