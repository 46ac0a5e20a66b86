"""Seat presence: when each seated player was last seen, for the bots' grace period.

Requests (`GET .../state`, `POST .../actions`) and open sockets mark the caller's seat seen; the
host may hand a seat to a bot only once its owner left or has been unseen past the grace period.
Writes are throttled so polling clients do not turn every read into a database write.

Open sockets also keep `seats.socket_until` in the future: each game room's heartbeat
sets it ahead for every seated player with a socket there, and the player's last socket closing
clears it, so any instance can tell whether the owner has the game open before it sends a "your
turn" email.

The same marks tell the bot runner whether anyone still attends a game only bots play
(`attended`): if not, its bots wait (app/services/botseats/runner.py).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from app.db.models.games import Game, Seat
from app.shared.clock import now_in

log = logging.getLogger(__name__)

# A seat seen this recently is not written again: the grace period is counted in tens of seconds.
MIN_WRITE_INTERVAL_S = 5.0


def mark_seen(
    db: Session,
    game_id: int,
    user_id: int | None,
    *,
    back: bool = False,
    min_interval_s: float | None = None,
    socket_until: datetime | bool | None = False,
) -> None:
    """Record that `user_id` is present at `game_id` (no-op if not seated); commits if it wrote.

    `back=True` (the player made a move) also clears a "left" mark, unless a bot already holds
    the seat: then only reclaiming gives it back. `socket_until` (a time, or None to clear; the
    default False leaves it alone) is the open-socket mark.
    """
    if user_id is None:
        return
    row = db.execute(
        select(Seat.id, Seat.last_seen_at, Seat.left_at, Seat.bot_level).where(
            Seat.game_id == game_id, Seat.user_id == user_id
        )
    ).first()
    if row is None:
        return
    now = now_in(db)
    interval = timedelta(seconds=MIN_WRITE_INTERVAL_S if min_interval_s is None else min_interval_s)
    values: dict[str, object] = {}
    if row.last_seen_at is None or now - _aware(row.last_seen_at) >= interval:
        values["last_seen_at"] = now
    if back and row.left_at is not None and row.bot_level is None:
        values["left_at"] = None
    if socket_until is not False:
        values["socket_until"] = socket_until
    if not values:
        return
    db.execute(
        update(Seat)
        .where(Seat.id == row.id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    db.commit()


def mark_many_seen(
    db: Session, game_id: int, user_ids: list[int], socket_ttl_s: float | None = None
) -> None:
    """Record that these users are present at `game_id` now (the caller commits).

    `socket_ttl_s`: they have a socket open on the game, vouched for that long (no
    "your turn" email while `socket_until` is in the future); None leaves the mark alone.
    """
    if user_ids:
        now = now_in(db)
        values: dict[str, object] = {"last_seen_at": now}
        if socket_ttl_s is not None:
            values["socket_until"] = now + timedelta(seconds=socket_ttl_s)
        db.execute(
            update(Seat)
            .where(Seat.game_id == game_id, Seat.user_id.in_(user_ids))
            .values(**values)
            .execution_options(synchronize_session=False)
        )


def back_in(db: Session, game_id: int, seat: int) -> None:
    """The seat's owner made a move: seen now, and no longer "left" unless a bot holds the seat
    (then only reclaiming gives it back). In the move's transaction: the caller commits."""
    db.execute(
        update(Seat)
        .where(Seat.game_id == game_id, Seat.seat == seat, Seat.bot_level.is_(None))
        .values(last_seen_at=now_in(db), left_at=None)
        .execution_options(synchronize_session=False)
    )


def socket_closed(db: Session, game_id: int, user_id: int) -> None:
    """The user's last socket on this game (on this instance) closed: seen now, no open socket
    (another instance's heartbeat marks it again if one is open there). The caller commits."""
    db.execute(
        update(Seat)
        .where(Seat.game_id == game_id, Seat.user_id == user_id)
        .values(last_seen_at=now_in(db), socket_until=None)
        .execution_options(synchronize_session=False)
    )


def seen_at(game: Game, seat: Seat) -> datetime | None:
    """When the seat's owner was last known present: last seen, joined, or the game's start."""
    stamps = [_aware(t) for t in (seat.last_seen_at, seat.joined_at, game.started_at) if t]
    return max(stamps) if stamps else None


def away_for(game: Game, seat: Seat, now: datetime) -> float:
    """Seconds since the seat's owner was last seen (infinite if never)."""
    seen = seen_at(game, seat)
    if seen is None:
        return float("inf")
    return (now - seen).total_seconds()


def _aware(value: datetime) -> datetime:
    # UTCDateTime already returns aware values; this guards raw reads that bypass it.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# --- attendance: whether anyone is still at a game of bots ---------------------------------


def _attended(now: datetime, idle_s: float) -> Any:
    """A condition on games: a person plays a seat, or an owner was seen (or has a socket
    open) within `idle_s`, or the game started within it."""
    since = now - timedelta(seconds=idle_s)
    present = (
        select(Seat.id)
        .where(
            Seat.game_id == Game.id,
            Seat.user_id.is_not(None),
            or_(
                Seat.bot_level.is_(None),
                Seat.last_seen_at >= since,
                Seat.socket_until > now,
            ),
        )
        .exists()
    )
    return or_(present, Game.started_at >= since)


def attended(
    db: Session, game_ids: list[int], idle_s: float, now: datetime | None = None
) -> dict[int, bool]:
    """For each of these games that is still live: whether someone attends it (`_attended`)."""
    if not game_ids:
        return {}
    now = now or now_in(db)
    rows = db.execute(
        select(Game.id, _attended(now, idle_s)).where(Game.id.in_(game_ids), Game.status == "live")
    )
    return {game_id: bool(present) for game_id, present in rows}
