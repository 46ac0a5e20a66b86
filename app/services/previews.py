"""Placement previews for the seat choosing where to place: the engine's outcomes, served."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

import app.engine as rules
from app.engine import preview
from app.services.errors import ServiceError
from app.services.games import load_state
from app.services.lobby import seat_of, visible_game


def outcomes(
    db: Session, game_id: int, user_id: int, card: str, version: int, limit: int
) -> dict[str, Any]:
    """`{version, card, outcomes}`: every legal placement of `card` and what it would give.

    Only for the caller's own seat while it chooses a placement: the outcomes name cards cashed
    and depend on Gold cards held, which are that seat's secrets (R-60).
    """
    game = visible_game(db, game_id, user_id)
    seat = seat_of(game, user_id)
    if seat is None:
        raise ServiceError("not_seated", f"you have no seat in game {game_id}")
    if seat.bot_level is not None:
        raise ServiceError("seat_has_bot", "a bot is playing your seat; take it back first")
    if game.status != "live":
        raise ServiceError("not_started" if game.status == "open" else "game_over", "not live")
    if version != game.version:
        raise ServiceError("stale_version", f"the game is at version {game.version}, not {version}")
    state = load_state(db, game)
    if state.turn.seat != seat.seat:
        raise ServiceError("not_your_turn", f"seat {state.turn.seat} decides now, not yours")
    try:
        actions = preview.placeable(state, seat.seat, card)
    except rules.EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None
    if len(actions) > limit:
        raise ServiceError(
            "too_many_outcomes",
            f"{card} has {len(actions)} legal placements, more than the {limit} a preview lists",
        )
    return {
        "version": game.version,
        "card": card,
        "outcomes": [preview.outcome(state, seat.seat, action) for action in actions],
    }
