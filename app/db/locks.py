"""Named locks held until the transaction ends: count-then-insert checks that cannot race."""

from __future__ import annotations

import hashlib

from sqlalchemy import text
from sqlalchemy.orm import Session


def lock_id(name: str) -> int:
    """A stable signed 64-bit number for `name` (Postgres advisory locks take a bigint)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def serialise(db: Session, name: str) -> None:
    """Wait for, then hold until commit or rollback, the lock called `name`.

    Postgres: a transaction-scoped advisory lock, so only transactions about the same thing
    (one address, one user) wait for each other. SQLite has one writer at a time: a write that
    changes nothing takes its database-wide write lock now, before the caller counts, instead
    of at the caller's first real write, after it counted.
    """
    if db.get_bind().dialect.name == "postgresql":
        db.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": lock_id(name)})
    else:
        db.execute(text("UPDATE users SET id = id WHERE 0 = 1"))
