"""Placement previews: GET /api/games/{id}/outcomes, the engine's outcomes of placements, and
GET /api/games/{id}/explain, the engine's reason an action would be refused."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.i18n import t_, translate_reason
from app.services.play import previews
from app.shared.errors import ServiceError
from app.web.deps import DbDep, GameId, SettingsDep, UserDep
from app.web.errors import errors
from app.web.throttle import count_use

router = APIRouter(prefix="/api/games", tags=["games"])

CardQuery = Annotated[str, Query(min_length=1, max_length=16, description="a hand card's id")]
VersionQuery = Annotated[
    int, Query(ge=0, le=2**31 - 1, description="the game version the preview is for")
]


class GoldOut(BaseModel):
    squares: int  # Gold symbols covered
    treasures: int  # what a treasure adds: tripled symbols, 2 per Dragon in contact
    rewards: int  # Reward Board Gold from the tails moved
    total: int


class NeighbourGoldOut(BaseModel):
    seat: int
    gold: int


class TailStepOut(BaseModel):
    track: str
    from_: int = Field(alias="from")  # `from` is a Python keyword
    to: int
    gold: int  # Reward Board Gold of the space reached
    treasure: bool  # the space reached draws a Hidden Treasure


class OutcomeOut(BaseModel):
    action: dict[str, Any]  # the exact legal action to send
    cost: int
    cashed: list[str]  # Gold cards cashed to pay (the player's own)
    gold: GoldOut
    gold_after: int
    gold_change: int
    neighbours_gold: list[NeighbourGoldOut]
    ships: int
    ship_colours: list[str]
    reef_draws: int
    treasure_draws: int
    tails: list[TailStepOut]
    ancestral: bool
    events: list[str]  # the log lines the placement would write
    notes: list[str]


class OutcomesOut(BaseModel):
    version: int
    card: str
    outcomes: list[OutcomeOut]


@router.get(
    "/{game_id}/outcomes",
    response_model=OutcomesOut,
    responses=errors(401, 403, 404, 409, 422, 503),
)
def placement_outcomes(
    game_id: GameId,
    card: CardQuery,
    version: VersionQuery,
    db: DbDep,
    user: UserDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Every legal placement of one hand card and what the engine would give for it: only the
    seat choosing a placement, at the game's version (409 stale_version otherwise); a card with
    more than SEADRAGONS_OUTCOMES_MAX placements: 422 too_many_outcomes."""
    return previews.outcomes(db, game_id, user.id, card, version, settings.outcomes_max)


class ReasonOut(BaseModel):
    code: str  # stable: one of app/engine/explain.py REASONS
    facts: dict[str, Any]  # the numbers and squares the text cites, as data
    text: str  # one sentence for people, squares named as the table names them


class ExplainOut(BaseModel):
    version: int
    legal: bool
    reason: ReasonOut | None


ActionQuery = Annotated[str, Query(min_length=2, description="the action, as JSON")]


@router.get(
    "/{game_id}/explain",
    response_model=ExplainOut,
    responses=errors(401, 403, 404, 409, 422, 429, 503),
)
def explain_action(
    request: Request,
    game_id: GameId,
    version: VersionQuery,
    action: ActionQuery,
    db: DbDep,
    user: UserDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Why the engine would refuse an action of the seat to act (null `reason` if it would
    not): only that seat, at the game's version. An action longer than
    SEADRAGONS_EXPLAIN_ACTION_MAX_CHARS: 422 invalid_request (text that is not JSON is a
    malformed action, explained like any other); past
    SEADRAGONS_EXPLAIN_LIMITS_PER_USER: 429 too_many_explains."""
    if len(action) > settings.explain_action_max_chars:
        raise ServiceError(
            "invalid_request",
            t_(
                "action: at most {explain_action_max_chars} characters",
                explain_action_max_chars=settings.explain_action_max_chars,
            ),
        )
    try:
        parsed: Any = json.loads(action)
    except ValueError:
        # Text that is not JSON is no action: the engine says so (reason `malformed`), as it
        # does of JSON that is no action; the schema can state a length, not JSON's grammar.
        parsed = action
    count_use(request.app.state.throttles.explain, user.id, "too_many_explains", "explanations")
    answer = previews.explain(db, game_id, user.id, version, parsed)
    return {**answer, "reason": translate_reason(answer["reason"])}
