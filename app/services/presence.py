"""Seat presence: when each seated player was last seen, for the bots' grace period.

Requests (`GET .../state`, `POST .../actions`) and open sockets mark the caller's seat seen; the
host may hand a seat to a bot only once its owner left or has been unseen past the grace period.
Writes are throttled so polling clients do not turn every read into a database write.

Open sockets also keep `seats.socket_until` in the future (issue 14): every heartbeat sets it to
`SOCKET_TTL_S` ahead and a disconnect clears it, so any instance can tell whether the owner has
the game open before it sends a "your turn" email. (With two sockets on one game, closing one
clears it until the other's next heartbeat, at most SOCKET_EVERY_S later.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

from anyio import to_thread
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Game, Seat, utcnow

log = logging.getLogger(__name__)

# A seat seen this recently is not written again: the grace period is counted in tens of seconds.
MIN_WRITE_INTERVAL_S = 5.0
# How often an open socket refreshes its seat (well inside the default 60 s grace period).
SOCKET_EVERY_S = 20.0
# How long one heartbeat vouches for an open socket: two missed beats and a margin.
SOCKET_TTL_S = 2 * SOCKET_EVERY_S + 10.0


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
    default False leaves it alone) is the open-socket mark of issue 14.
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
    now = utcnow()
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


def seen_at(game: Game, seat: Seat) -> datetime | None:
    """When the seat's owner was last known present: last seen, joined, or the game's start."""
    stamps = [_aware(t) for t in (seat.last_seen_at, seat.joined_at, game.started_at) if t]
    return max(stamps) if stamps else None


def away_for(game: Game, seat: Seat, now: datetime | None = None) -> float:
    """Seconds since the seat's owner was last seen (infinite if never)."""
    seen = seen_at(game, seat)
    if seen is None:
        return float("inf")
    return ((now or utcnow()) - seen).total_seconds()


def _aware(value: datetime) -> datetime:
    # UTCDateTime already returns aware values; this guards raw reads that bypass it.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _mark_quietly(
    sessions: sessionmaker[Session], game_id: int, user_id: int, connected: bool = True
) -> None:
    until = utcnow() + timedelta(seconds=SOCKET_TTL_S) if connected else None
    try:
        with sessions() as db:
            mark_seen(db, game_id, user_id, min_interval_s=0, socket_until=until)
    except Exception:  # presence is best effort: a socket must not die over it
        log.warning("could not mark user %s seen in game %s", user_id, game_id, exc_info=True)


@contextlib.asynccontextmanager
async def seen_while_connected(
    sessions: sessionmaker[Session],
    game_id: int,
    user_id: int | None,
    every_s: float | None = None,
) -> AsyncIterator[None]:
    """Mark the seat seen on connect, every `every_s` (20) while inside, and on disconnect."""
    if user_id is None:
        yield
        return
    period = SOCKET_EVERY_S if every_s is None else every_s

    async def beat() -> None:
        while True:
            await to_thread.run_sync(_mark_quietly, sessions, game_id, user_id)
            await asyncio.sleep(period)

    task = asyncio.create_task(beat())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # The grace period counts from the disconnect, not from the last heartbeat.
        with contextlib.suppress(Exception):
            await to_thread.run_sync(_mark_quietly, sessions, game_id, user_id, False)
