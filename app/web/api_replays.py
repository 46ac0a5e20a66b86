"""Replays: GET /api/games/{id}/replay, every position of a finished game from the engine."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel

from app.services.watching import replays
from app.web.deps import DbDep, GameId, MaybeUserDep
from app.web.errors import errors

router = APIRouter(prefix="/api/games", tags=["games"])

InviteQuery = Annotated[str | None, Query(max_length=64, description="needed for private games")]


class FrameOut(BaseModel):
    seq: int
    seat: int
    action: dict[str, Any]
    lines: list[str]  # the move's log lines, secrets included (the game is over)
    # The same lines in pieces (`[key, params]`), so the page words them in its reader's
    # language (docs/i18n.md); without them a Spanish replay read the English `lines`.
    pieces: list[list[list[Any]]]
    ops: list[dict[str, Any]]  # RFC 6902 ops from the previous position's document


class ReplayOut(BaseModel):
    game_id: int
    seats: list[str]
    start: dict[str, Any]  # the view at version 0, every hand shown
    frames: list[FrameOut]
    final_scores: dict[str, Any]


@router.get("/{game_id}/replay", response_model=ReplayOut, responses=errors(404, 409, 422, 503))
def game_replay(
    game_id: GameId,
    db: DbDep,
    user: MaybeUserDep,
    invite_code: InviteQuery = None,
) -> dict[str, Any]:
    """A finished game, position by position, as the engine saw it (every hand shown, R-60);
    a game not finished: 409 not_finished."""
    uid = user.id if user else None
    return replays.replay(db, game_id, uid, invite_code)
