"""Rematch routes: offer, see, accept and decline a rematch of a finished game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel

from app.i18n import t_
from app.services.tables import rematch
from app.services.tables.lobby import get_game, visible_game
from app.shared.errors import ServiceError
from app.web.deps import (
    DbDep,
    GameId,
    LiveCapsDep,
    MaybeUserDep,
    NotifierDep,
    SettingsDep,
    UserDep,
)
from app.web.errors import errors

router = APIRouter(prefix="/api/games", tags=["rematch"])


class RematchSeatOut(BaseModel):
    seat: int
    name: str
    user_id: int | None
    # accepted | pending | declined for players; "bot" for a bot's own seat (it always comes);
    # null while no rematch is offered.
    answer: str | None


class RematchOut(BaseModel):
    game_id: int
    rematch_id: int | None
    host_id: int | None = None
    status: str | None
    seats: list[RematchSeatOut]


def _out(db: Any, game_id: int) -> dict[str, Any]:
    return rematch.describe(get_game(db, game_id), rematch.rematch_of(db, game_id))


@router.get("/{game_id}/rematch", response_model=RematchOut, responses=errors(404, 422, 503))
def get_rematch(
    game_id: GameId,
    db: DbDep,
    user: MaybeUserDep,
    invite_code: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """The rematch offered for this game and everyone's answer (`rematch_id` null: none yet)."""
    visible_game(db, game_id, user.id if user else None, invite_code)
    return _out(db, game_id)


@router.post(
    "/{game_id}/rematch",
    response_model=RematchOut,
    responses=errors(401, 403, 404, 409, 422, 429, 503),
)
def offer(
    game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep, settings: SettingsDep
) -> dict[str, Any]:
    """Offer a rematch: the same players, seats, bots and options at a new table you host (it
    counts among your open tables: 429 too_many_tables past SEADRAGONS_MAX_OPEN_TABLES_PER_USER)."""
    max_open = settings.max_open_tables_per_user
    rematch.offer(db, game_id, user, notifier=notifier, max_open=max_open)
    return _out(db, game_id)


@router.post(
    "/{game_id}/rematch/accept",
    response_model=RematchOut,
    responses=errors(401, 403, 404, 409, 422, 503),
)
def accept(
    game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep, caps: LiveCapsDep
) -> dict[str, Any]:
    """Take the seat kept for you at the rematch (the last to accept starts it, within the
    caps on live games; past them it waits, full, for its host to start it)."""
    rematch.accept(db, game_id, user, notifier=notifier, live_caps=caps)
    return _out(db, game_id)


@router.post(
    "/{game_id}/rematch/decline",
    response_model=RematchOut,
    responses=errors(401, 403, 404, 409, 422, 503),
)
def decline(game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep) -> dict[str, Any]:
    """Give up the seat kept for you at the rematch."""
    visible_game(db, game_id, user.id)  # a private game is 404 to strangers
    if rematch.rematch_of(db, game_id) is None:
        raise ServiceError(
            "no_rematch", t_("nobody offered a rematch of game {game_id}", game_id=game_id)
        )
    rematch.decline(db, game_id, user, notifier=notifier)
    return _out(db, game_id)
