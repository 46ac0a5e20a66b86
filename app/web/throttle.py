"""Throttle password guessing: failed sign-ins per username and per client address.

Backed by the `limits` library: in memory for one process, in Redis when SEADRAGONS_REDIS_URL
is set, so every instance counts the same failures.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many, storage, strategies

from app.services.errors import ServiceError

# Generous for a person who mistypes, hopeless for a script.
FAILURE_LIMITS = "10/minute;100/day"


class LoginThrottle:
    """Counts failed attempts; refuses further ones past a limit with `too_many_attempts`."""

    def __init__(self, redis_url: str | None = None, limits: str = FAILURE_LIMITS) -> None:
        self._store = storage.storage_from_string(redis_url or "memory://")
        self._limiter = strategies.FixedWindowRateLimiter(self._store)
        self._limits: list[RateLimitItem] = parse_many(limits)
        self._prefix = "seadragons-login"

    def _keys(self, username: str, client: str | None) -> list[tuple[str, ...]]:
        keys = [(self._prefix, "user", username.strip().lower())]
        if client:
            keys.append((self._prefix, "addr", client))
        return keys

    def check(self, username: str, client: str | None) -> None:
        """Raise `too_many_attempts` if this username or address has failed too often."""
        for key in self._keys(username, client):
            for item in self._limits:
                if not self._limiter.test(item, *key):
                    reset = self._limiter.get_window_stats(item, *key).reset_time
                    wait = max(1, math.ceil(reset - time.time()))
                    raise ServiceError(
                        "too_many_attempts",
                        f"too many failed sign-ins; try again in {wait} seconds",
                    )

    def failed(self, username: str, client: str | None) -> None:
        """Count one failed attempt against the username and the address."""
        for key in self._keys(username, client):
            for item in self._limits:
                self._limiter.hit(item, *key)
