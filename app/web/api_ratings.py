"""Ratings, profiles, leaderboards, one's finished games, a rated table's prediction."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel

from app.i18n import t_
from app.services.ratings import history as history_reads
from app.services.ratings import leaderboard as leaderboard_reads
from app.services.ratings import profiles
from app.services.ratings import results as ratings
from app.services.tables.lobby import visible_game
from app.shared.errors import ServiceError
from app.web.deps import DbDep, GameId, MaybeUserDep, SettingsDep, UserDep
from app.web.errors import errors

router = APIRouter(prefix="/api", tags=["ratings"])

Username = Annotated[str, Path(min_length=1, max_length=32, description="an account's username")]
Page = Annotated[int, Query(ge=1, le=100_000, description="1-based page")]


class HistoryPointOut(BaseModel):
    game_id: int | None  # None: a private game (counted, never named)
    at: str
    rating: int


class RatingOut(BaseModel):
    variant: Literal["base", "expansion"]
    rating: int | None  # None: no rated game yet
    mu: float | None = None
    sigma: float | None = None
    games: int
    provisional: bool
    rank: int | None  # on the variant's leaderboard; None while provisional
    history: list[HistoryPointOut]


class ByPlayersOut(BaseModel):
    players: int
    played: int
    won: int


class CategoriesOut(BaseModel):
    gold: float | None
    ships: float | None
    missions: float | None
    most_missions: float | None
    realms: float | None
    tails: float | None  # expansion games only


class AveragesOut(BaseModel):
    games: int
    you: CategoriesOut
    opponents: CategoriesOut


class SeatResultOut(BaseModel):
    seat: int
    name: str
    bot_name: str | None = None  # a bot's own name on its own seat: pages word its level
    username: str | None  # an account: its profile is /u/{username}
    bot_level: str | None
    place: int | None
    total: int | None
    quit: bool


class GameLineOut(BaseModel):
    game_id: int
    finished_at: str | None
    variant: Literal["base", "expansion"]
    players: int
    rated: bool
    seat: int | None
    place: int | None  # None until the game's results are recorded (moments after the end)
    total: int | None
    quit: bool
    rating_after: int | None
    rating_change: int | None
    seats: list[SeatResultOut]
    replay: str


class OpponentOut(BaseModel):
    username: str | None
    display_name: str


class HeadToHeadOut(BaseModel):
    opponent: OpponentOut
    games: int
    ahead: int
    behind: int
    level: int
    recent: list[GameLineOut]


class ProfileOut(BaseModel):
    username: str | None
    display_name: str
    member_since: str
    ratings: list[RatingOut]
    by_players: list[ByPlayersOut]
    averages: AveragesOut
    recent: list[GameLineOut]
    # Public finished games played to the end against those left (a bot held the seat at
    # the end, or its owner left): {"finished": n, "left": m}.
    commitment: dict[str, int]
    vs: HeadToHeadOut | None


class LeaderEntryOut(BaseModel):
    rank: int
    username: str | None
    display_name: str
    rating: int
    games: int


class LeaderboardOut(BaseModel):
    variant: Literal["base", "expansion"]
    page: int
    page_size: int
    total: int
    pages: int
    entries: list[LeaderEntryOut]


class HistoryLineOut(GameLineOut):
    # A bot held my seat at the end while I had not left: I stepped away, I did not leave.
    stepped_away: bool = False


class HistoryOut(BaseModel):
    page: int
    page_size: int
    total: int
    pages: int
    games: list[HistoryLineOut]


class SeatPredictionOut(BaseModel):
    seat: int
    win: float  # the chance to win
    place: int  # the expected place (1 = first)


class PredictionOut(BaseModel):
    game_id: int
    rated: bool
    seats: list[SeatPredictionOut]


@router.get("/users/{username}/profile", response_model=ProfileOut, responses=errors(404, 422, 503))
def profile(
    username: Username,
    db: DbDep,
    settings: SettingsDep,
    vs: Annotated[str | None, Query(max_length=32, description="another username")] = None,
) -> ProfileOut:
    """A player's public profile: ratings with history and rank, results, head-to-head."""
    return ProfileOut(**profiles.profile(db, username, settings, vs))


@router.get("/leaderboard", response_model=LeaderboardOut, responses=errors(422, 503))
def leaderboard(
    db: DbDep,
    settings: SettingsDep,
    variant: Literal["base", "expansion"] = "base",
    page: Page = 1,
) -> LeaderboardOut:
    """Non-provisional ratings of a variant, best first, paged."""
    return LeaderboardOut(**leaderboard_reads.leaderboard(db, variant, page, settings))


@router.get("/me/history", response_model=HistoryOut, responses=errors(401, 422, 503))
def my_history(db: DbDep, user: UserDep, settings: SettingsDep, page: Page = 1) -> HistoryOut:
    """My finished games with their results, newest first, paged (private ones included)."""
    return HistoryOut(**history_reads.history(db, user, page, settings))


@router.get(
    "/games/{game_id}/prediction",
    response_model=PredictionOut,
    responses=errors(404, 409, 422, 503),
)
def prediction(
    game_id: GameId,
    db: DbDep,
    user: MaybeUserDep,
    invite_code: Annotated[str | None, Query(max_length=64)] = None,
) -> PredictionOut:
    """Expected places of a rated table's seated players before it starts (OpenSkill)."""
    game = visible_game(db, game_id, user.id if user else None, invite_code)
    if not game.rated:
        raise ServiceError("not_rated", t_("game {game_id} is not rated", game_id=game_id))
    return PredictionOut(game_id=game.id, rated=True, seats=ratings.prediction(db, game))
