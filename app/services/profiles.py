"""Profiles, leaderboards and finished-game history, read from `game_results` and `ratings`.

Only public facts leave here (R-60): places, points per scoring category and ratings of
finished games, never anything from a hand. A private game is known to its players only
(lobby.check_access): on a profile it counts in the rating (a number) but is never named, and
statistics, recent games and head-to-head cover public games; "Your games" (one's own history)
lists one's own private games too.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, Integer, and_, bindparam, case, func, select, union_all
from sqlalchemy.orm import Session, aliased

from app.db.models import Game, GameResult, ProfileSummary, Rating, Seat, User
from app.i18n import t_
from app.services import profile_summaries
from app.services import rating_model as rm
from app.services.errors import ServiceError
from app.services.names import display_seat_name

RESULT_COLUMNS = tuple(GameResult.__table__.c)  # rows, not ORM objects: reads stay cheap
# Built once: an alias proxies every column, and building one per read shows in its cost.
THEIRS = aliased(GameResult, name="theirs")
OTHER = aliased(Rating, name="other")


def account(db: Session, username: str) -> User:
    """The account named `username` (any case); `not_found` for guests and unknown names."""
    name = username.strip().lower()
    user = db.scalar(select(User).where(User.username == name)) if 0 < len(name) <= 32 else None
    if user is None:
        raise ServiceError(
            "not_found", t_("there is no player {username}", username=repr(username[:32]))
        )
    return user


def _public() -> Any:
    return and_(Game.id == GameResult.game_id, Game.visibility == "public")


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


def rank_of(db: Session, row: Rating, provisional_sigma: float) -> int | None:
    """The place on the variant's leaderboard (None while provisional)."""
    if row.sigma > provisional_sigma:
        return None
    above = db.scalar(
        select(func.count())
        .select_from(Rating)
        .where(
            Rating.variant == row.variant,
            Rating.display > row.display,
            Rating.sigma <= provisional_sigma,
        )
    )
    return 1 + int(above or 0)


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


# A profile read is four statements, built once here (building one costs more CPU than the
# database takes to answer it): account with ratings and ranks, rating histories, the kept
# sums, recent games with their seats. Parameters: `:name`, `:sigma`, `:user_id`, `:points`,
# `:recent`.
ACCOUNT_RATINGS = (
    select(
        User,
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
            Game.visibility,
        )
        .join(Game, Game.id == GameResult.game_id)
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


HISTORIES = union_all(*(select(_history_of(variant)) for variant in rm.VARIANTS))
SUMS = select(*ProfileSummary.__table__.c).where(ProfileSummary.user_id == bindparam("user_id"))


def _account_ratings(db: Session, username: str, provisional_sigma: float) -> tuple[User, list]:
    """The account and its ratings with their ranks, in one query (`not_found` as `account`)."""
    name = username.strip().lower()
    params = {"name": name, "sigma": provisional_sigma}
    rows = db.execute(ACCOUNT_RATINGS, params).all() if 0 < len(name) <= 32 else []
    if not rows:
        raise ServiceError(
            "not_found", t_("there is no player {username}", username=repr(username[:32]))
        )
    return rows[0][0], [r for r in rows if r.variant is not None]


def _histories(db: Session, user_id: int, points: int) -> dict[str, list[dict[str, Any]]]:
    """Per variant, the rating after each rated game, oldest first (the newest `points`); a
    private game's point carries no game id."""
    rows = db.execute(HISTORIES, {"user_id": user_id, "points": points}).all()
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


def _statistics(db: Session, user_id: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Games played and won by player count, and mean points per category (the player's and
    their opponents'), from the player's kept sums (app/services/profile_summaries.py)."""
    return profile_summaries.statistics(db.execute(SUMS, {"user_id": user_id}).all())


def _seats_query(where: Any) -> Any:
    """Every seat of some games with its name, profile username and result (the seat's columns
    as `s_*`, the result's as they are: None while a game's results are not recorded yet)."""
    return (
        select(
            Seat.game_id.label("s_game_id"),
            Seat.seat.label("s_seat"),
            Seat.user_id.label("s_user_id"),
            Seat.bot_level.label("s_bot_level"),
            User.display_name,
            User.username,
            Game.bot_names_of,
            *RESULT_COLUMNS,
        )
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(User, User.id == Seat.user_id)
        .outerjoin(
            GameResult, and_(GameResult.game_id == Seat.game_id, GameResult.seat == Seat.seat)
        )
        .where(where)
        .order_by(Seat.game_id, Seat.seat)
    )


# The games: the newest `:recent` of the player's public results, read along their index (not
# correlated: the outer query reads the same tables).
_NEWEST = (
    select(GameResult.game_id)
    .join(Game, _public())
    .where(GameResult.user_id == bindparam("user_id"))
    .order_by(GameResult.id.desc())
    .limit(bindparam("recent", type_=Integer))
    .correlate(None)
    .scalar_subquery()
)
RECENT = _seats_query(Seat.game_id.in_(_NEWEST))


def _seat_line(r: Any) -> dict[str, Any]:
    key = r.bot_names_of or r.s_game_id
    return {
        "seat": r.s_seat,
        "name": display_seat_name(key, r.s_seat, r.display_name, r.s_bot_level),
        "username": r.username,
        "bot_level": r.s_bot_level if r.s_user_id is None else None,
        "place": r.place,
        "total": r.total,
        "quit": bool(r.quit),
    }


def _names(db: Session, game_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Per game: every seat's name, profile username and result, by seat (one query; a game
    whose results are not recorded yet has its seats without places)."""
    if not game_ids:
        return {}
    out: dict[int, list[dict[str, Any]]] = {gid: [] for gid in game_ids}
    for r in db.execute(_seats_query(Seat.game_id.in_(game_ids))):
        out[r.s_game_id].append(_seat_line(r))
    return out


def _change(r: Any) -> int | None:
    if r.mu_before is None or r.sigma_before is None or r.display_after is None:
        return None
    return r.display_after - rm.display(r.mu_before, r.sigma_before)


def _game_line(r: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game_id": r.game_id,
        "finished_at": r.finished_at.isoformat(),
        "variant": r.variant,
        "players": r.players,
        "rated": r.rated,
        "seat": r.seat,
        "place": r.place,
        "total": r.total,
        "quit": r.quit,
        "rating_after": r.display_after,
        "rating_change": _change(r),
        "seats": seats,
        "replay": f"/games/{r.game_id}/replay",
    }


def _recent(db: Session, user_id: int, limit: int) -> list[dict[str, Any]]:
    """The player's newest public games, every seat of each with its name and result."""
    rows = db.execute(RECENT, {"user_id": user_id, "recent": limit})
    seats: dict[int, list[dict[str, Any]]] = {}
    mine = []
    for r in rows:
        seats.setdefault(r.s_game_id, []).append(_seat_line(r))
        if r.user_id == user_id:
            mine.append(r)
    mine.sort(key=lambda r: -r.id)
    return [_game_line(r, seats[r.game_id]) for r in mine]


def head_to_head(db: Session, user: User, other: User, limit: int) -> dict[str, Any]:
    """Public finished games both played: who placed ahead how often, and the latest games."""
    theirs = THEIRS
    pairs = db.execute(
        select(*RESULT_COLUMNS, theirs.place.label("their_place"))
        .join(Game, _public())
        .join(theirs, and_(theirs.game_id == GameResult.game_id, theirs.user_id == other.id))
        .where(GameResult.user_id == user.id)
        .order_by(GameResult.id.desc())
    ).all()
    ahead = sum(1 for r in pairs if r.place < r.their_place)
    behind = sum(1 for r in pairs if r.place > r.their_place)
    latest = pairs[:limit]
    names = _names(db, [r.game_id for r in latest])
    return {
        "opponent": {"username": other.username, "display_name": other.display_name},
        "games": len(pairs),
        "ahead": ahead,
        "behind": behind,
        "level": len(pairs) - ahead - behind,
        "recent": [_game_line(r, names[r.game_id]) for r in latest],
    }


def profile(db: Session, username: str, settings: Any, vs: str | None = None) -> dict[str, Any]:
    """Everything public about a player: ratings with history and rank, games played and won
    by player count, mean points per category against their opponents, recent games, and the
    record against `vs` (a username) if asked."""
    sigma = settings.rating_provisional_sigma
    user, found = _account_ratings(db, username, sigma)
    rows = {r.variant: r for r in found}
    histories = _histories(db, user.id, settings.profile_history_points)
    out_ratings = []
    for variant in rm.VARIANTS:
        row = rows.get(variant)
        shown = _rating_out(row, variant, sigma)
        shown["rank"] = None if row is None else row.rank
        shown["history"] = histories[variant]
        out_ratings.append(shown)
    by_players, averages = _statistics(db, user.id)
    result: dict[str, Any] = {
        "username": user.username,
        "display_name": user.display_name,
        "member_since": user.created_at.isoformat(),
        "ratings": out_ratings,
        "by_players": by_players,
        "averages": averages,
        "recent": _recent(db, user.id, settings.profile_recent_games),
        "vs": None,
    }
    if vs:
        result["vs"] = head_to_head(db, user, account(db, vs), settings.profile_recent_games)
    return result


def leaderboard(db: Session, variant: str, page: int, settings: Any) -> dict[str, Any]:
    """Non-provisional ratings of a variant, best first, one page (1-based)."""
    if variant not in rm.VARIANTS:
        raise ServiceError(
            "invalid_request", t_("variant is one of {variants}", variants=", ".join(rm.VARIANTS))
        )
    size = settings.leaderboard_page_size
    sigma = settings.rating_provisional_sigma
    where = (Rating.variant == variant, Rating.sigma <= sigma)
    total = db.scalar(select(func.count()).select_from(Rating).where(*where)) or 0
    rows = db.execute(
        select(Rating, User.username, User.display_name)
        .join(User, User.id == Rating.user_id)
        .where(*where)
        .order_by(Rating.display.desc(), Rating.user_id)
        .offset((page - 1) * size)
        .limit(size)
    ).all()
    # Equal ratings share a rank, the one the profile shows (1 + how many are above).
    entries = []
    rank = 0
    for i, (r, uname, dname) in enumerate(rows):
        if i == 0:
            rank = rank_of(db, r, sigma) or 1
        elif r.display != rows[i - 1][0].display:
            rank = (page - 1) * size + i + 1
        entries.append(
            {
                "rank": rank,
                "username": uname,
                "display_name": dname,
                "rating": r.display,
                "games": r.games,
            }
        )
    return {
        "variant": variant,
        "page": page,
        "page_size": size,
        "total": int(total),
        "pages": max(1, -(-int(total) // size)),
        "entries": entries,
    }


def history(db: Session, user: User, page: int, settings: Any) -> dict[str, Any]:
    """The caller's finished games, newest first, one page, with their result where recorded
    (the results job may not have run yet just after the end: then place is None)."""
    size = settings.history_page_size
    finished = (
        select(Game.id)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status == "finished")
    )
    total = db.scalar(select(func.count()).select_from(finished.subquery())) or 0
    ids = list(
        db.scalars(
            finished.order_by(Game.finished_at.desc(), Game.id.desc())
            .offset((page - 1) * size)
            .limit(size)
        )
    )
    mine = {
        r.game_id: r
        for r in db.execute(
            select(*RESULT_COLUMNS).where(
                GameResult.game_id.in_(ids), GameResult.user_id == user.id
            )
        )
    }
    missing = [gid for gid in ids if gid not in mine]  # finished a moment ago: not recorded yet
    games = {g.id: g for g in db.scalars(select(Game).where(Game.id.in_(missing)))}
    names = _names(db, ids)
    entries = []
    for gid in ids:
        r = mine.get(gid)
        if r is not None:
            entries.append(_game_line(r, names[gid]))
            continue
        game = games[gid]
        entries.append(
            {
                "game_id": gid,
                "finished_at": game.finished_at.isoformat() if game.finished_at else None,
                "variant": rm.variant_of(game.options),
                "players": game.players,
                "rated": game.rated,
                "seat": next((s.seat for s in game.seats if s.user_id == user.id), None),
                "place": None,
                "total": None,
                "quit": False,
                "rating_after": None,
                "rating_change": None,
                "seats": names[gid],
                "replay": f"/games/{gid}/replay",
            }
        )
    return {
        "page": page,
        "page_size": size,
        "total": int(total),
        "pages": max(1, -(-int(total) // size)),
        "games": entries,
    }
