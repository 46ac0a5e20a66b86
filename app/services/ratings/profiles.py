"""Profiles, read from `game_results` and `ratings` with the statements of profile_queries.py
(the leaderboard: leaderboard.py; one's own history: history.py; games as lines: game_lines.py).

Only public facts leave here (R-60): places, points per scoring category and ratings of
finished games, never anything from a hand. A private game is known to its players only
(lobby.check_access): on a profile it counts in the rating (a number) but is never named, and
statistics, recent games and head-to-head cover public games; "Your games" (one's own history)
lists one's own private games too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.i18n import t_
from app.services.ratings import commitment, game_lines
from app.services.ratings import model as rm
from app.services.ratings import summaries as profile_summaries
from app.services.ratings.profile_queries import (
    ACCOUNT_RATINGS,
    HISTORIES,
    LATEST_TOGETHER,
    OPPONENT,
    PROFILE_IN_ONE,
    PROFILE_VS_IN_ONE,
    RECENT,
    RECORD,
    SUMS,
    HeadToHead,
    HistoryRow,
    OpponentRow,
    ProfileRows,
    RatingRow,
    RecentRow,
    SumRow,
    read_rows,
)
from app.shared.errors import ServiceError


def account(db: Session, username: str) -> User:
    """The account named `username` (any case); `not_found` for guests and unknown names."""
    name = _normalised(username)
    user = db.scalar(select(User).where(User.username == name)) if name is not None else None
    if user is None:
        raise _not_found(username)
    return user


def _rating_out(row: Any, variant: str, provisional_sigma: float) -> dict[str, Any]:
    if row is None:
        return {"variant": variant, "rating": None, "games": 0, "provisional": True, "rank": None}
    return {
        "variant": variant,
        "rating": row.display,
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.games,
        "provisional": row.sigma > provisional_sigma,
        "rank": None,
    }


def _not_found(username: str) -> ServiceError:
    return ServiceError(
        "not_found", t_("there is no player {username}", username=repr(username[:32]))
    )


def _read_separately(db: Session, name: str, settings: Any) -> ProfileRows | None:
    """The profile's rows in four statements (SQLite: no round trips to save, and its JSON
    prints floats to 15 digits, not exactly); None for no such account."""
    found = read_rows(
        db, ACCOUNT_RATINGS, {"name": name, "sigma": settings.rating_provisional_sigma}
    )
    if not found:
        return None
    user_id = found[0].id
    points = {"user_id": user_id, "points": settings.profile_history_points}
    return ProfileRows(
        account=found[0],
        ratings=[RatingRow(*r[4:]) for r in found if r.variant is not None],
        history=read_rows(db, HISTORIES, points),
        sums=read_rows(db, SUMS, {"user_id": user_id}),
        recent=read_rows(db, RECENT, {"user_id": user_id, "recent": settings.profile_recent_games}),
    )


def _json_time(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _recent_rows(rows: Sequence[Sequence[Any]] | None) -> list[RecentRow]:
    return [RecentRow(*r[:-1], _json_time(r[-1])) for r in rows or ()]


def _read_in_one(db: Session, name: str, settings: Any, vs: str | None) -> ProfileRows | None:
    """The profile's rows from `PROFILE_IN_ONE` (Postgres), or `PROFILE_VS_IN_ONE` with the
    head-to-head against `vs` (a normalised username); None for no such account."""
    params = {
        "name": name,
        "sigma": settings.rating_provisional_sigma,
        "points": settings.profile_history_points,
        "recent": settings.profile_recent_games,
    }
    if vs is not None:
        params["vs"] = vs
    found = read_rows(db, PROFILE_IN_ONE if vs is None else PROFILE_VS_IN_ONE, params)
    if not found:
        return None
    row = found[0]
    return ProfileRows(
        account=row,
        ratings=[RatingRow(*r) for r in row.ratings or ()],
        history=[
            HistoryRow(v, i, gid, _json_time(at), shown, vis)
            for v, i, gid, at, shown, vis in row.history or ()
        ],
        sums=[SumRow(*r) for r in row.sums or ()],
        recent=_recent_rows(row.recent),
        vs=None
        if vs is None
        else HeadToHead(
            opponent=None if row.opponent is None else OpponentRow(*row.opponent),
            record=row.record,
            together=_recent_rows(row.together),
        ),
    )


def _normalised(username: str) -> str | None:
    """A username as stored (lower case, trimmed), or None if no account can have it."""
    name = username.strip().lower()
    return name if 0 < len(name) <= 32 else None


def _profile_rows(
    db: Session, username: str, settings: Any, in_one: bool, vs: str | None
) -> ProfileRows:
    """The rows of `username`'s profile (any case): in one statement (`in_one`, with the
    head-to-head against `vs`, a normalised username, if given) or in four; `not_found` as
    `account`."""
    name = _normalised(username)
    rows = None
    if name is not None:
        if in_one:
            rows = _read_in_one(db, name, settings, vs)
        else:
            rows = _read_separately(db, name, settings)
    if rows is None:
        raise _not_found(username)
    return rows


def _histories(rows: Sequence[Any]) -> dict[str, list[dict[str, Any]]]:
    """Per variant, the rating after each rated game, oldest first; a private game's point
    carries no game id."""
    out: dict[str, list[dict[str, Any]]] = {variant: [] for variant in rm.VARIANTS}
    for variant, _id, gid, at, shown, visibility in sorted(rows, key=lambda r: r[1]):
        out[variant].append(
            {
                "game_id": gid if visibility == "public" else None,
                "at": at.isoformat(),
                "rating": shown,
            }
        )
    return out


def _opponent(db: Session, username: str) -> Any:
    """The account named `username` (any case) as (id, username, display_name); `not_found` as
    `account`."""
    name = _normalised(username)
    found = read_rows(db, OPPONENT, {"name": name}) if name is not None else []
    if not found:
        raise _not_found(username)
    return found[0]


def _read_head_to_head(db: Session, user_id: int, vs: str, limit: int) -> HeadToHead:
    """The head-to-head's rows in three statements (the opponent, the record, the latest games
    together)."""
    other = _opponent(db, vs)
    pair = {"user_id": user_id, "other_id": other.id}
    record = read_rows(db, RECORD, pair)[0]
    together = read_rows(db, LATEST_TOGETHER, {**pair, "recent": limit})
    return HeadToHead(opponent=other, record=record, together=together)


def _head_to_head(user_id: int, rows: HeadToHead) -> dict[str, Any]:
    """Public finished games both played: who placed ahead how often, and the latest games."""
    games, ahead, behind = rows.record
    return {
        "opponent": {
            "username": rows.opponent.username,
            "display_name": rows.opponent.display_name,
        },
        "games": games,
        "ahead": ahead,
        "behind": behind,
        "level": games - ahead - behind,
        "recent": game_lines.games_of(rows.together, user_id),
    }


def profile(
    db: Session, username: str, settings: Any, vs: str | None = None, *, in_one: bool | None = None
) -> dict[str, Any]:
    """Everything public about a player: ratings with history and rank, games played and won
    by player count, mean points per category against their opponents, recent games, and the
    record against `vs` (a username) if asked. `in_one`: read in one statement (the default on
    Postgres) or in four, and three more for `vs` (elsewhere); the documents are the same."""
    if in_one is None:
        in_one = db.get_bind().dialect.name == "postgresql"
    vs_name = _normalised(vs) if vs else None
    rows = _profile_rows(db, username, settings, in_one, vs_name)
    user = rows.account
    sigma = settings.rating_provisional_sigma
    by_variant = {r.variant: r for r in rows.ratings}
    histories = _histories(rows.history)
    out_ratings = []
    for variant in rm.VARIANTS:
        row = by_variant.get(variant)
        shown = _rating_out(row, variant, sigma)
        shown["rank"] = None if row is None else row.rank
        shown["history"] = histories[variant]
        out_ratings.append(shown)
    by_players, averages = profile_summaries.statistics(rows.sums)
    result: dict[str, Any] = {
        "username": user.username,
        "display_name": user.display_name,
        "member_since": user.created_at.isoformat(),
        "ratings": out_ratings,
        "by_players": by_players,
        "averages": averages,
        "recent": game_lines.games_of(rows.recent, user.id),
        "commitment": commitment.finished_and_left(db, user.id),
        "vs": None,
    }
    if vs:
        together = rows.vs
        if together is None:  # not read with the profile
            together = _read_head_to_head(db, user.id, vs, settings.profile_recent_games)
        elif together.opponent is None:
            raise _not_found(vs)
        result["vs"] = _head_to_head(user.id, together)
    return result
