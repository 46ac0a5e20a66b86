"""The statements a profile is read with, built once at import (building one costs more CPU
than the database takes to answer it), and the rows they return; profiles.py reads with them
and builds the document.

Only public facts are selected (R-60): places, points per scoring category and ratings of
finished games; recent games and head-to-head cover public games only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Float, Integer, and_, bindparam, case, func, select, text, union_all
from sqlalchemy.orm import Session, aliased

from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.models.ratings import GameResult, ProfileSummary, Rating
from app.services.ratings import model as rm
from app.services.ratings import summaries as profile_summaries

# Built once: an alias proxies every column, and building one per read shows in its cost.
THEIRS = aliased(GameResult, name="theirs")
OTHER = aliased(Rating, name="other")


def _public() -> Any:
    return and_(Game.id == GameResult.game_id, Game.visibility == "public")


def _rank() -> Any:
    """`rank_of` as a column of a query on `Rating` (None while provisional); `:sigma` is the
    provisional sigma."""
    sigma = bindparam("sigma", type_=Float)
    above = (
        select(func.count())
        .select_from(OTHER)
        .where(
            OTHER.variant == Rating.variant,
            OTHER.display > Rating.display,
            OTHER.sigma <= sigma,
        )
        .correlate(Rating)
        .scalar_subquery()
    )
    return case((Rating.sigma <= sigma, 1 + above))


# A profile read on SQLite is four statements, built once here (building one costs more CPU
# than the database takes to answer it): account with ratings and ranks, rating histories, the
# kept sums, recent games with their seats; head-to-head adds three (`OPPONENT`, `RECORD`,
# `LATEST_TOGETHER`). On Postgres the same parts come back from one statement (`PROFILE_IN_ONE`,
# or `PROFILE_VS_IN_ONE` with the head-to-head), each part aggregated to JSON. Parameters:
# `:name`, `:sigma`, `:user_id`, `:points`, `:recent`, and `:vs` (head-to-head).
ACCOUNT_RATINGS = (
    select(
        User.id,
        User.username,
        User.display_name,
        User.created_at,
        Rating.variant,
        Rating.mu,
        Rating.sigma,
        Rating.display,
        Rating.games,
        _rank().label("rank"),
    )
    .outerjoin(Rating, Rating.user_id == User.id)
    .where(User.username == bindparam("name"))
)


def _history_of(variant: str) -> Any:
    """A variant's newest `:points` rated results of `:user_id`, read backwards along the index
    (user_id, variant, id)."""
    return (
        select(
            GameResult.variant,
            GameResult.id,
            GameResult.game_id,
            GameResult.finished_at,
            GameResult.display_after,
        )
        .where(
            GameResult.user_id == bindparam("user_id"),
            GameResult.variant == variant,
            GameResult.rated,
            GameResult.display_after.is_not(None),
        )
        .order_by(GameResult.id.desc())
        .limit(bindparam("points", type_=Integer))
        .subquery()
    )


# The games' visibility is joined to the newest points only (joined inside each part, it was
# looked up for every rated result of the player, and planned twice).
_POINTS = union_all(*(select(_history_of(variant)) for variant in rm.VARIANTS)).subquery("points")
HISTORIES = select(*_POINTS.c, Game.visibility).join(Game, Game.id == _POINTS.c.game_id)
SUMS = select(*ProfileSummary.__table__.c).where(ProfileSummary.user_id == bindparam("user_id"))


def _result_seats(games: Any) -> Any:
    """Every seat of some recorded games, in game and seat order, as `RecentRow`s: `games` is a
    subquery of their `game_id` and `bot_names_of`. A recorded game has a result for every seat
    (the results job writes them at once), and a result keeps its seat's owner and bot, so the
    seats table is not read."""
    return (
        select(
            GameResult.game_id,
            GameResult.seat,
            GameResult.user_id,
            GameResult.bot_level,
            GameResult.place,
            GameResult.total,
            GameResult.quit,
            User.display_name,
            User.username,
            games.c.bot_names_of,
            GameResult.id,
            GameResult.variant,
            GameResult.players,
            GameResult.rated,
            GameResult.display_after,
            GameResult.mu_before,
            GameResult.sigma_before,
            GameResult.finished_at,
        )
        .select_from(games)
        .join(GameResult, GameResult.game_id == games.c.game_id)
        .outerjoin(User, User.id == GameResult.user_id)
        .order_by(GameResult.game_id, GameResult.seat)
    )


class RecentRow(NamedTuple):
    """A seat of a recorded game with its result (`_result_seats`' columns)."""

    game_id: int
    seat: int
    user_id: int | None
    bot_level: str | None
    place: int
    total: int
    quit: bool
    display_name: str | None
    username: str | None
    bot_names_of: int | None
    id: int
    variant: str
    players: int
    rated: bool
    display_after: int | None
    mu_before: float | None
    sigma_before: float | None
    finished_at: datetime


# The games: the newest `:recent` of the player's public results, read backwards along
# (user_id, id).
_NEWEST = (
    select(GameResult.game_id, Game.bot_names_of)
    .join(Game, _public())
    .where(GameResult.user_id == bindparam("user_id"))
    .order_by(GameResult.id.desc())
    .limit(bindparam("recent", type_=Integer))
    .subquery("newest")
)
RECENT = _result_seats(_NEWEST)


class RatingRow(NamedTuple):
    variant: str
    mu: float
    sigma: float
    display: int
    games: int
    rank: int | None


class HistoryRow(NamedTuple):
    variant: str
    id: int
    game_id: int
    finished_at: datetime
    display_after: int
    visibility: str


SumRow = NamedTuple("SumRow", [(c, Any) for c in profile_summaries.COLUMNS])  # type: ignore[misc]


class ProfileRows(NamedTuple):
    """What a profile document is built from, however it was read."""

    account: Any  # id, username, display_name, created_at
    ratings: Sequence[Any]  # `RatingRow`'s fields
    history: Sequence[Any]  # `HistoryRow`'s fields
    sums: Sequence[Any]  # `profile_summaries.COLUMNS`
    recent: Sequence[Any]  # `RecentRow`'s fields
    vs: Any = None  # read with the profile (`HeadToHead`), or None: read after it, if asked


class HeadToHead(NamedTuple):
    opponent: Any  # id, username, display_name
    record: Sequence[int]  # games together, ahead, behind
    together: Sequence[Any]  # `RecentRow`s: every seat of the latest games together


# Postgres: the four parts in one statement, one round trip. Each part is one JSON array of
# rows (each row an array of the columns of `RatingRow`, `HistoryRow`, `SumRow` and `RecentRow`,
# in their order), so the database plans and answers one statement, and this process describes
# and fetches one row of 8 columns instead of four results of 60. JSON keeps every value exact:
# integers, booleans, float8 in its shortest exact form (Postgres 12 on, at the default
# extra_float_digits), timestamps in ISO 8601 with their offset. The parts are the four
# statements above, written out (tests/services/test_profiles_read.py compares the two reads).
# Every seat of the games `n` (their `game_id` and `bot_names_of`) as `RecentRow`s.
_SEATS_JSON = """(SELECT json_agg(json_build_array(r.game_id, r.seat, r.user_id, r.bot_level,
       r.place, r.total, r.quit, o.display_name, o.username, n.bot_names_of, r.id, r.variant,
       r.players, r.rated, r.display_after, r.mu_before, r.sigma_before, r.finished_at)
       ORDER BY r.game_id, r.seat)
   FROM ({games}) n
   JOIN game_results r ON r.game_id = n.game_id
   LEFT JOIN users o ON o.id = r.user_id)"""
_NEWEST_JSON = """SELECT m.game_id, g.bot_names_of FROM game_results m
         JOIN games g ON g.id = m.game_id AND g.visibility = 'public'{together}
         WHERE m.user_id = u.id ORDER BY m.id DESC LIMIT :recent"""
# The games the player shares with `:vs` (their result `t`).
_TOGETHER_JSON = """
         JOIN game_results t ON t.game_id = m.game_id
         JOIN users v ON v.id = t.user_id AND v.username = :vs"""
_PROFILE_JSON = f"""
SELECT u.id, u.username, u.display_name, u.created_at,
  (SELECT json_agg(json_build_array(r.variant, r.mu, r.sigma, r.display, r.games,
       CASE WHEN r.sigma <= :sigma THEN 1 + (
         SELECT count(*) FROM ratings other
         WHERE other.variant = r.variant AND other.display > r.display
           AND other.sigma <= :sigma) END))
   FROM ratings r WHERE r.user_id = u.id) AS ratings,
  (SELECT json_agg(json_build_array(p.variant, p.id, p.game_id, p.finished_at,
       p.display_after, g.visibility))
   FROM ((SELECT variant, id, game_id, finished_at, display_after FROM game_results
          WHERE user_id = u.id AND variant = 'base' AND rated AND display_after IS NOT NULL
          ORDER BY id DESC LIMIT :points)
         UNION ALL
         (SELECT variant, id, game_id, finished_at, display_after FROM game_results
          WHERE user_id = u.id AND variant = 'expansion' AND rated
            AND display_after IS NOT NULL
          ORDER BY id DESC LIMIT :points)) p
   JOIN games g ON g.id = p.game_id) AS history,
  (SELECT json_agg(json_build_array(s.user_id, s.variant, s.players, s.played, s.won,
       s.own_gold, s.own_ships, s.own_missions, s.own_most_missions, s.own_realms, s.own_tails,
       s.own_tails_n, s.opp_seats, s.opp_gold, s.opp_ships, s.opp_missions,
       s.opp_most_missions, s.opp_realms, s.opp_tails, s.opp_tails_n))
   FROM profile_summaries s WHERE s.user_id = u.id) AS sums,
  {_SEATS_JSON.format(games=_NEWEST_JSON.format(together=""))} AS recent"""
# Head-to-head against `:vs`: the opponent, the record (games together, ahead, behind) and every
# seat of the latest games together, three more columns of the same statement.
_VS_JSON = f""",
  (SELECT json_build_array(v.id, v.username, v.display_name) FROM users v
   WHERE v.username = :vs) AS opponent,
  (SELECT json_build_array(count(*), count(CASE WHEN m.place < t.place THEN 1 END),
       count(CASE WHEN m.place > t.place THEN 1 END))
   FROM game_results m
   JOIN games g ON g.id = m.game_id AND g.visibility = 'public'{_TOGETHER_JSON}
   WHERE m.user_id = u.id) AS record,
  {_SEATS_JSON.format(games=_NEWEST_JSON.format(together=_TOGETHER_JSON))} AS together"""
_ACCOUNT_JSON = """
FROM users u WHERE u.username = :name"""
_ACCOUNT = (User.id, User.username, User.display_name, User.created_at)
PROFILE_IN_ONE = text(_PROFILE_JSON + _ACCOUNT_JSON).columns(*_ACCOUNT)
PROFILE_VS_IN_ONE = text(_PROFILE_JSON + _VS_JSON + _ACCOUNT_JSON).columns(*_ACCOUNT)


def read_rows(db: Session, statement: Any, params: dict[str, Any]) -> list[Any]:
    """Rows of a prebuilt column-only statement, on the session's connection: plain rows need
    none of the ORM's work, which costs more than these small queries take to answer."""
    return db.connection().execute(statement, params).all()


class OpponentRow(NamedTuple):
    id: int
    username: str
    display_name: str


_TOGETHER = (
    select(GameResult.game_id, Game.bot_names_of)
    .join(Game, _public())
    .join(
        THEIRS, and_(THEIRS.game_id == GameResult.game_id, THEIRS.user_id == bindparam("other_id"))
    )
    .where(GameResult.user_id == bindparam("user_id"))
)
_PAIRS = _TOGETHER.with_only_columns(
    GameResult.place.label("mine"), THEIRS.place.label("theirs")
).subquery("pairs")
RECORD = select(
    func.count(),
    func.count(case((_PAIRS.c.mine < _PAIRS.c.theirs, 1))),
    func.count(case((_PAIRS.c.mine > _PAIRS.c.theirs, 1))),
)
LATEST_TOGETHER = _result_seats(
    _TOGETHER.order_by(GameResult.id.desc())
    .limit(bindparam("recent", type_=Integer))
    .subquery("newest")
)
OPPONENT = select(User.id, User.username, User.display_name).where(
    User.username == bindparam("name")
)
