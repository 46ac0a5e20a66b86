"""Placement previews for the seat choosing where to place: the engine's outcomes, served."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.games import Game
from app.engine import preview
from app.i18n import t_, translate_outcome
from app.services.play.games import check_playable, load_state
from app.services.tables.lobby import seat_of, visible_game
from app.shared.errors import ServiceError


def seat_to_act(db: Session, game_id: int, user_id: int, version: int) -> tuple[Game, Any, int]:
    """The game, its state and the caller's seat, when that seat decides now at `version`.

    Previews, reasons and hints read the deciding seat's own secrets (its hand, its Gold
    cards), so only that seat's player is answered (R-60).
    """
    game = visible_game(db, game_id, user_id)
    seat = seat_of(game, user_id)
    if seat is None:
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    if seat.bot_level is not None:
        raise ServiceError("seat_has_bot", "a bot is playing your seat; take it back first")
    check_playable(game, version)
    state = load_state(db, game)
    if state.turn.seat != seat.seat:
        raise ServiceError(
            "not_your_turn", t_("seat {seat} decides now, not yours", seat=state.turn.seat)
        )
    return game, state, seat.seat


def outcomes(
    db: Session, game_id: int, user_id: int, card: str, version: int, limit: int
) -> dict[str, Any]:
    """`{version, card, outcomes}`: every legal placement of `card` and what it would give.

    Only for the caller's own seat while it chooses a placement: the outcomes name cards cashed
    and depend on Gold cards held, which are that seat's secrets (R-60).
    """
    game, state, seat = seat_to_act(db, game_id, user_id, version)
    try:
        actions = preview.placeable(state, seat, card)
    except rules.EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None
    if len(actions) > limit:
        raise ServiceError(
            "too_many_outcomes",
            t_(
                "{card} has {actions} legal placements, more than the {limit} a preview lists",
                card=card,
                actions=len(actions),
                limit=limit,
            ),
        )
    return {
        "version": game.version,
        "card": card,
        "outcomes": [translate_outcome(preview.outcome(state, seat, action)) for action in actions],
    }


def explain(db: Session, game_id: int, user_id: int, version: int, action: Any) -> dict[str, Any]:
    """`{version, legal, reason}`: whether the deciding seat's `action` would be applied now,
    and if not, why (the engine's reason, app/engine/explain.py)."""
    game, state, seat = seat_to_act(db, game_id, user_id, version)
    why = rules.explain(state, seat, action)
    return {
        "version": game.version,
        "legal": why is None,
        "reason": why.to_json() if why is not None else None,
    }
