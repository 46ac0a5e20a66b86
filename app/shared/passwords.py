"""Password hashing: Argon2id at the cost the settings give, one hasher per session factory."""

from __future__ import annotations

from functools import cached_property

from argon2 import PasswordHasher
from sqlalchemy.orm import Session

# argon2-cffi's own defaults (RFC 9106's second recommended option): the server's unless
# SEADRAGONS_PASSWORD_HASH_TIME_COST / _MEMORY_KIB say otherwise.
TIME_COST = 3
MEMORY_KIB = 65536


class Passwords:
    """Hashes and checks passwords with one Argon2id cost (`time_cost` passes over
    `memory_kib` KiB). A stored hash of another cost still verifies, and is hashed again at
    this cost at the next sign-in (`needs_rehash`)."""

    def __init__(self, time_cost: int = TIME_COST, memory_kib: int = MEMORY_KIB) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)

    @cached_property
    def dummy_hash(self) -> str:
        """Verified against when the username is unknown, at the same cost as a real hash, so
        timing does not reveal which usernames exist."""
        return self.hasher.hash("not a real password")


def passwords_of(db: Session) -> Passwords:
    """The session factory's hasher (app/db/session.make_sessionmaker), built with the app's
    context from the settings."""
    return db.info["passwords"]
