"""Bot seats: the host adds and removes bots before the start, hands away seats, owners reclaim."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body
from pydantic import Field

from app.bots import LEVELS
from app.services.tables import seats
from app.web.deps import DbDep, GameId, NotifierDep, SeatNo, SettingsDep, UserDep
from app.web.errors import errors
from app.web.schemas import Body as BodyModel
from app.web.schemas import GameOut

router = APIRouter(prefix="/api/games", tags=["bots"])


DEFAULT_LEVEL = "greedy"


class BotIn(BodyModel):
    # One of app.bots.LEVELS (the service checks it again, for its other callers).
    level: Literal[LEVELS] = Field(default=DEFAULT_LEVEL, examples=["greedy"])  # type: ignore[valid-type]


# Optional: no body at all means the default level.
BotBody = Annotated[BotIn | None, Body()]


def _level(body: BotIn | None) -> str:
    return body.level if body is not None else DEFAULT_LEVEL


WITH_BODY = errors(401, 403, 404, 409, 413, 422, 503)
NO_BODY = errors(401, 403, 404, 409, 422, 503)


@router.post("/{game_id}/bots", response_model=GameOut, responses=WITH_BODY)
def add_bot(
    game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep, body: BotBody = None
) -> GameOut:
    """Seat a bot in the lowest empty seat of an open table (host only)."""
    return GameOut.of(seats.add_bot(db, game_id, user, _level(body), notifier=notifier), user.id)


@router.delete("/{game_id}/bots/{seat}", response_model=GameOut, responses=NO_BODY)
def remove_bot(
    game_id: GameId, seat: SeatNo, db: DbDep, user: UserDep, notifier: NotifierDep
) -> GameOut:
    """Empty a bot seat again before the start (host only)."""
    return GameOut.of(seats.remove_bot(db, game_id, user, seat, notifier=notifier), user.id)


@router.post("/{game_id}/seats/{seat}/bot", response_model=GameOut, responses=WITH_BODY)
def hand_seat_to_bot(
    game_id: GameId,
    seat: SeatNo,
    db: DbDep,
    user: UserDep,
    notifier: NotifierDep,
    settings: SettingsDep,
    body: BotBody = None,
) -> GameOut:
    """A bot plays `seat` of a live game: its owner's choice, or the host's once the owner left
    or has been away longer than the grace period."""
    game = seats.replace_with_bot(
        db,
        game_id,
        user,
        seat,
        _level(body),
        grace_s=settings.bot_grace_seconds,
        notifier=notifier,
    )
    return GameOut.of(game, user.id)


@router.post("/{game_id}/seats/{seat}/reclaim", response_model=GameOut, responses=NO_BODY)
def reclaim_seat(
    game_id: GameId, seat: SeatNo, db: DbDep, user: UserDep, notifier: NotifierDep
) -> GameOut:
    """The seat's owner plays it again; the bot standing in stops at the next decision."""
    return GameOut.of(seats.reclaim_seat(db, game_id, user, seat, notifier=notifier), user.id)
