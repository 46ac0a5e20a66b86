"""The leaderboard: non-provisional ratings of a variant, best first, a page at a time."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, Integer, bindparam, func, select
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.ratings import Rating
from app.i18n import t_
from app.services.ratings import model as rm
from app.services.ratings.profile_queries import read_rows
from app.shared.errors import ServiceError

# A leaderboard page, built once: the count of ranked ratings, the page, and how many are
# above its first (equal ratings share a rank). Parameters: `:variant`, `:sigma`, `:offset`,
# `:size`, `:display`.
_RANKED = (
    Rating.variant == bindparam("variant"),
    Rating.sigma <= bindparam("sigma", type_=Float),
)
RANKED_COUNT = select(func.count()).select_from(Rating).where(*_RANKED)
LEADERBOARD_PAGE = (
    select(Rating.display, Rating.games, User.username, User.display_name)
    .join(User, User.id == Rating.user_id)
    .where(*_RANKED)
    .order_by(Rating.display.desc(), Rating.user_id)
    .offset(bindparam("offset", type_=Integer))
    .limit(bindparam("size", type_=Integer))
)
RANKED_ABOVE = RANKED_COUNT.where(Rating.display > bindparam("display", type_=Integer))


def leaderboard(db: Session, variant: str, page: int, settings: Any) -> dict[str, Any]:
    """Non-provisional ratings of a variant, best first, one page (1-based)."""
    if variant not in rm.VARIANTS:
        raise ServiceError(
            "invalid_request", t_("variant is one of {variants}", variants=", ".join(rm.VARIANTS))
        )
    size = settings.leaderboard_page_size
    ranked = {"variant": variant, "sigma": settings.rating_provisional_sigma}
    total = int(read_rows(db, RANKED_COUNT, ranked)[0][0] or 0)
    rows = read_rows(db, LEADERBOARD_PAGE, {**ranked, "offset": (page - 1) * size, "size": size})
    # Equal ratings share a rank, the one the profile shows (1 + how many are above).
    entries = []
    rank = 0
    for i, (display, games, uname, dname) in enumerate(rows):
        if i == 0:
            rank = 1 + int(read_rows(db, RANKED_ABOVE, {**ranked, "display": display})[0][0] or 0)
        elif display != rows[i - 1].display:
            rank = (page - 1) * size + i + 1
        entries.append(
            {
                "rank": rank,
                "username": uname,
                "display_name": dname,
                "rating": display,
                "games": games,
            }
        )
    return {
        "variant": variant,
        "page": page,
        "page_size": size,
        "total": total,
        "pages": max(1, -(-total // size)),
        "entries": entries,
    }
