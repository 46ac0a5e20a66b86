"""One's own finished games ("Your games" history), newest first, with their results where
recorded; one's private games included."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.db.models.ratings import GameResult
from app.services.ratings import model as rm
from app.services.ratings.game_lines import RESULT_COLUMNS, game_line, names_of


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
    names = names_of(db, ids)
    # A bot held the caller's seat at the end while they had not left: they stepped away and
    # let it play on (theirs to take back), which "Your games" does not call leaving.
    stepped_away = set(
        db.scalars(
            select(Seat.game_id).where(
                Seat.game_id.in_(ids),
                Seat.user_id == user.id,
                Seat.bot_level.is_not(None),
                Seat.left_at.is_(None),
            )
        )
    )
    entries = []
    for gid in ids:
        r = mine.get(gid)
        if r is not None:
            entries.append({**game_line(r, names[gid]), "stepped_away": gid in stepped_away})
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
                "stepped_away": gid in stepped_away,
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
