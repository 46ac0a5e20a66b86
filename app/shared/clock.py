"""Time, injected: every service that reads the time takes a `Clock`, so tests move a
`FakeClock` instead of sleeping.

`now()` is the wall clock (aware UTC, what is stored and shown); `monotonic()` is for measuring
intervals, which the wall clock may not (it can step).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker


class Clock(Protocol):
    """Where a service reads the time."""

    def now(self) -> datetime:
        """The wall clock, timezone-aware UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back."""
        ...


class SystemClock:
    """The machine's clocks."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()


class FakeClock:
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self._mono = 1000.0

    def now(self) -> datetime:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    def advance(self, seconds: float) -> None:
        """Move both clocks forward by `seconds`."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._now += timedelta(seconds=seconds)
        self._mono += seconds


SYSTEM_CLOCK = SystemClock()


def clock_of(db: Session) -> Clock:
    """The clock of a session's factory: the context's (app/db/session.make_sessionmaker), so
    every service that holds a session reads the same injected time."""
    return db.info["clock"]


def now_in(db: Session) -> datetime:
    """The wall clock as the session's factory tells it."""
    return db.info["clock"].now()


def clock_in(sessions: sessionmaker[Session]) -> Clock:
    """The clock of a session factory (what its sessions' `clock_of` returns)."""
    return sessions.kw["info"]["clock"]
