"""A finished game's analysis (docs/review.md): read it, or ask for it (the replay's "Analyse
this game"): a bounded queue, a bound per account, the requester who is looking first."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from app.services.reviews.requests import QueueLimits, analysis_of, request_analysis
from app.web.deps import DbDep, GameId, MaybeUserDep, SettingsDep, UserDep
from app.web.errors import errors

router = APIRouter(prefix="/api/games", tags=["games"])

InviteQuery = Annotated[str | None, Query(max_length=64, description="needed for private games")]

UNDER_WAY = {
    202: {
        "description": "no analysis yet: `{status: none|pending|running|failed, percent}`, "
        "and while pending `position` (1: next to start) and `wait_seconds` (expected)",
        "content": {"application/json": {}},
    }
}


@router.get("/{game_id}/analysis", responses={**UNDER_WAY, **errors(404, 409, 422, 503)})
def game_analysis(
    game_id: GameId,
    db: DbDep,
    user: MaybeUserDep,
    settings: SettingsDep,
    invite_code: InviteQuery = None,
) -> Any:
    """200: the analysis (the JSON `seadragons analyse` prints); 202: its progress (the
    requester asking keeps their request first in line while they look); 409 `not_finished`
    for a game that is not over (nothing about its analysis is said)."""
    document, status = analysis_of(
        db, game_id, user.id if user else None, invite_code, QueueLimits.from_settings(settings)
    )
    if document is None:
        return JSONResponse(status, status_code=202)
    return document


@router.post("/{game_id}/analysis", status_code=202, responses=errors(401, 404, 409, 422, 429, 503))
def ask_for_analysis(
    game_id: GameId,
    db: DbDep,
    user: UserDep,
    settings: SettingsDep,
    invite_code: InviteQuery = None,
) -> dict[str, Any]:
    """Queue the analysis of a finished game that has none (or retry a failed one): 202 with
    its status and place in line. 503 `review_queue_full` (Retry-After: the expected wait) when
    SEADRAGONS_REVIEW_QUEUE_MAX analyses wait; 429 `review_user_limit` past
    SEADRAGONS_REVIEW_PER_USER of the caller's own."""
    return request_analysis(db, game_id, user.id, invite_code, QueueLimits.from_settings(settings))
