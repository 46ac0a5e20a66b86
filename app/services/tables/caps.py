"""Caps on what one person or one address may hold at once: open tables, live games.

Open tables are capped per host when a table is created (a rematch offer included); live games
when a game starts, per user (the host: live games they hold a seat in) and per address (live
games started from it). Each count runs under a lock on what it counts (app/db/locks.py), so
requests racing from one user or one address are counted one after another. Addresses are kept
only as a keyed hash (`address_key`), never as they are.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.locks import serialise
from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.shared.errors import ServiceError

# Retry-After for the caps: a hint to look again later, not a window that resets.
RETRY_S = 60.0


def address_key(secret: str, address: str) -> str:
    """The stored form of a client address: an HMAC with the server's key, 32 hex digits.

    IPv4 addresses are few enough to hash all of them; keyed, a leaked table names nobody.
    """
    return hmac.new(secret.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def check_open_tables(db: Session, host: User, max_open: int) -> None:
    """Refuse a host who already has `max_open` open tables (`too_many_tables`); holds the
    user's lock until the commit, so concurrent creations count in turn."""
    serialise(db, f"open-tables:{host.id}")
    count = db.scalar(
        select(func.count(Game.id)).where(Game.host_id == host.id, Game.status == "open")
    )
    message = (
        f"you already host {count} open tables (at most {max_open}): "
        "start or leave one before opening another"
    )
    refuse_at(db, count or 0, max_open, "too_many_tables", message)


@dataclass(frozen=True)
class LiveCaps:
    """How many live games a game's host, and the address starting it, may have (0: no cap)."""

    per_user: int
    per_address: int
    address: str | None  # `address_key` of the request that starts the game

    def check(self, db: Session, host_id: int) -> None:
        """Refuse the start (`too_many_games`) when either cap is reached; holds the locks of
        the host and the address until the commit (the caller holds the game's lock first)."""
        if self.per_user:
            serialise(db, f"live-user:{host_id}")
            held = db.scalar(
                select(func.count(Seat.id))
                .join(Game, Game.id == Seat.game_id)
                .where(Seat.user_id == host_id, Game.status == "live")
            )
            _refuse_past(db, held or 0, self.per_user, "you already play")
        if self.per_address and self.address is not None:
            serialise(db, f"live-address:{self.address}")
            started = db.scalar(
                select(func.count(Game.id)).where(
                    Game.started_from == self.address, Game.status == "live"
                )
            )
            _refuse_past(db, started or 0, self.per_address, "your address already runs")


def _refuse_past(db: Session, count: int, cap: int, who: str) -> None:
    message = f"{who} {count} live games (at most {cap}): finish one first"
    refuse_at(db, count, cap, "too_many_games", message)


def refuse_at(
    db: Session, count: int, cap: int, code: str, message: str, retry_after: float = RETRY_S
) -> None:
    """Roll back and raise `code` (a 429, with Retry-After) once `count` has reached `cap`."""
    if count >= cap:
        db.rollback()
        raise ServiceError(code, message, retry_after=retry_after)
