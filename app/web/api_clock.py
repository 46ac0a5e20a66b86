"""POST /api/games/{id}/clock/extend: the player to act asks for the table's extra time."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app.services.tables import clock_extension
from app.shared.clock import now_in
from app.web.deps import DbDep, GameId, UserDep
from app.web.errors import errors

router = APIRouter(prefix="/api/games", tags=["games"])


class ExtendOut(BaseModel):
    clock: dict[str, Any]  # the clock as everyone sees it, its deadline moved on


@router.post(
    "/{game_id}/clock/extend",
    response_model=ExtendOut,
    responses=errors(401, 403, 404, 409, 422, 503),
)
def extend_clock(game_id: GameId, db: DbDep, user: UserDep) -> Any:
    """Once per turn, the person whose turn it is gets the clock's `extension` seconds more,
    before the turn's time runs out (409 no_extension, already_extended, time_is_up,
    not_your_turn; 403 not_seated)."""
    return {"clock": clock_extension.extend(db, game_id, user.id, now_in(db))}
