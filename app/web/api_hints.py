"""POST /api/games/{id}/hint: what the expert would do, for the seat to act at unrated tables."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.services.play import hints
from app.web.deps import DbDep, GameId, SettingsDep, UserDep
from app.web.errors import errors
from app.web.throttle import count_use

router = APIRouter(prefix="/api/games", tags=["games"])


class HintIn(BaseModel):
    version: int = Field(ge=0, le=2**31 - 1)


class HintOut(BaseModel):
    version: int
    action: dict[str, Any]  # one of the seat's legal actions, to send as it is
    summary: str  # the action in words ("complete MS07", "draw from the M deck")
    reasons: list[str]  # what it gives, in words: rewards and realm majorities


@router.post(
    "/{game_id}/hint",
    response_model=HintOut,
    responses=errors(401, 403, 404, 409, 422, 429, 503),
)
def game_hint(
    request: Request,
    game_id: GameId,
    body: HintIn,
    db: DbDep,
    user: UserDep,
    settings: SettingsDep,
) -> Any:
    """The expert's move from the caller's own view: the seat to act only, at the game's
    version, at unrated tables (409 rated_table); past SEADRAGONS_HINT_LIMITS_PER_USER: 429
    too_many_hints. The search takes at most SEADRAGONS_HINT_BUDGET_SECONDS, in a bot worker."""
    count_use(request.app.state.throttles.hints, user.id, "too_many_hints", "hints")
    workers = request.app.state.context.bot_workers
    answer = hints.hint(db, game_id, user.id, body.version, settings, workers)
    return hints.in_language(answer)
