"""A finished game's analysis (docs/review.md): read it, or ask for it (older games, retries)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from app.services.reviews import analysis
from app.web.deps import DbDep, GameId, MaybeUserDep
from app.web.schemas import errors

router = APIRouter(prefix="/api/games", tags=["games"])

InviteQuery = Annotated[str | None, Query(max_length=64, description="needed for private games")]

UNDER_WAY = {
    202: {
        "description": "no analysis yet: `{status: none|pending|running|failed, percent}`",
        "content": {"application/json": {}},
    }
}


@router.get("/{game_id}/analysis", responses={**UNDER_WAY, **errors(404, 409, 422, 503)})
def game_analysis(
    game_id: GameId, db: DbDep, user: MaybeUserDep, invite_code: InviteQuery = None
) -> Any:
    """200: the analysis (the JSON `seadragons analyse` prints); 202: its progress; 409
    `not_finished` for a game that is not over (nothing about its analysis is said)."""
    document, status = analysis.analysis_of(db, game_id, user.id if user else None, invite_code)
    if document is None:
        return JSONResponse(status, status_code=202)
    return document


@router.post("/{game_id}/analysis", status_code=202, responses=errors(404, 409, 422, 503))
def request_analysis(
    game_id: GameId, db: DbDep, user: MaybeUserDep, invite_code: InviteQuery = None
) -> dict[str, Any]:
    """Queue the analysis of a finished game that has none (or retry a failed one)."""
    return analysis.request_analysis(db, game_id, user.id if user else None, invite_code)
