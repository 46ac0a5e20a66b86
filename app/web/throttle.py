"""Rate limits: failed sign-ins, new guests and accounts per address, chat lines per user.

Built on the `limits` library: counted in memory for one process, in Redis when
SEADRAGONS_REDIS_URL is set, so every instance counts the same events. Keys are namespaced by
the database they guard, so several deployments (or test runs) may share one Redis. When the
counter store fails (Redis down), every check lets the request through and logs a warning:
limits are a defence, and a broken defence must not take sign-in down with it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse_many, storage, strategies
from limits.errors import StorageError

from app.i18n import t_
from app.settings import Settings
from app.shared.errors import ServiceError

log = logging.getLogger(__name__)

# A Redis that does not answer within this long counts as down (fail open) rather than hanging.
STORAGE_TIMEOUT_S = 1.0


def make_storage(redis_url: str | None) -> storage.Storage:
    """Counters in the shared Redis when given one (`Settings.shared_redis_url`), else in this
    process's memory."""
    if redis_url:
        # The limits library names a Redis socket `redis+unix://`.
        url = (
            "redis+unix://" + redis_url.removeprefix("unix://")
            if redis_url.startswith("unix://")
            else redis_url
        )
        return storage.storage_from_string(
            url,
            wrap_exceptions=True,
            socket_timeout=STORAGE_TIMEOUT_S,
            socket_connect_timeout=STORAGE_TIMEOUT_S,
        )
    return storage.storage_from_string("memory://", wrap_exceptions=True)


def namespace_for(database_url: str) -> str:
    """A short stable name for one deployment: instances sharing a database share counters."""
    return "sd" + hashlib.sha256(database_url.encode()).hexdigest()[:12]


class Limit:
    """One named set of limits ("10/minute;100/day") over a store; an empty spec never refuses."""

    def __init__(
        self,
        store: storage.Storage,
        name: str,
        spec: str,
        namespace: str = "sd",
        *,
        moving: bool = False,
    ) -> None:
        self.name = name
        self.items: list[RateLimitItem] = parse_many(spec) if spec.strip() else []
        # A moving window has no edge at which twice the rate gets through (used for chat).
        kind = strategies.MovingWindowRateLimiter if moving else strategies.FixedWindowRateLimiter
        self._limiter = kind(store)
        self._prefix = (namespace, name)

    def _wait(self, item: RateLimitItem, key: tuple[str, ...]) -> float:
        reset = self._limiter.get_window_stats(item, *key).reset_time
        return float(max(1, math.ceil(reset - time.time())))

    def test(self, *key: str) -> float | None:
        """None if one more event is allowed now, else the seconds to wait; counts nothing."""
        full = (*self._prefix, *key)
        try:
            for item in self.items:
                if not self._limiter.test(item, *full):
                    return self._wait(item, full)
        except StorageError as exc:
            log.warning("rate limit %s not checked, letting it through: %s", self.name, exc)
        return None

    def hit(self, *key: str) -> float | None:
        """Count one event: None if it was within the limits, else the seconds to wait."""
        full = (*self._prefix, *key)
        try:
            for item in self.items:
                if not self._limiter.hit(item, *full):
                    return self._wait(item, full)
        except StorageError as exc:
            log.warning("rate limit %s not counted, letting it through: %s", self.name, exc)
        return None


class LoginThrottle:
    """Failed sign-ins, per (username, address) and per address: guessing from one place is
    stopped, while the owner signing in from elsewhere is never locked out by it."""

    def __init__(self, per_user_address: Limit, per_address: Limit) -> None:
        self.per_user_address = per_user_address
        self.per_address = per_address

    @staticmethod
    def _user(username: str) -> str:
        return username.strip().lower()[:64]

    def check(self, username: str, client: str | None) -> None:
        """Raise `too_many_attempts` if this address failed too often (for this name or any)."""
        address = client or "unknown"
        wait = self.per_user_address.test(self._user(username), address)
        if wait is None:
            wait = self.per_address.test(address)
        if wait is not None:
            raise ServiceError(
                "too_many_attempts",
                t_("too many failed sign-ins; try again in {wait} seconds", wait=int(wait)),
                retry_after=wait,
            )

    def failed(self, username: str, client: str | None) -> None:
        """Count one failed attempt against the (username, address) pair and the address."""
        address = client or "unknown"
        self.per_user_address.hit(self._user(username), address)
        self.per_address.hit(address)


def count_use(limit: Limit, user_id: int, code: str, what: str) -> None:
    """Count one request of a user's; raise `code` (429, with Retry-After) past the limit."""
    wait = limit.hit(str(user_id))
    if wait is not None:
        raise ServiceError(
            code, t_("too many {what}; try again in {wait} s", what=what, wait=int(wait)), wait
        )


def count_creation(limit: Limit, key: str, code: str, what: str) -> None:
    """Count one creation for `key`; raise `code` (429, with Retry-After) past the limit."""
    wait = limit.hit(key)
    if wait is not None:
        raise ServiceError(
            code,
            t_(
                "too many {what} from your address; try again in {wait} s",
                what=what,
                wait=int(wait),
            ),
            wait,
        )


class ChatLimiter:
    """Chat lines per user across all their sockets and instances (called by app/realtime)."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit

    def allow(self, user_id: int) -> float | None:
        """Count one chat line: None when allowed, else the seconds to wait before the next."""
        return self.limit.hit(str(user_id))


@dataclass
class Throttles:
    """Every rate limit of one app, sharing one counter store."""

    login: LoginThrottle
    guests: Limit
    accounts: Limit
    chat: ChatLimiter
    explain: Limit
    hints: Limit
    # Quick-match entries made (POST /api/match), per user and per address.
    match_user: Limit
    match_address: Limit

    def admit_match(self, user_id: int, address: str) -> None:
        """Count a pool entry made; `too_many_joins` past either limit (nothing is stored)."""
        count_use(self.match_user, user_id, "too_many_joins", "pool entries")
        count_creation(self.match_address, address, "too_many_joins", "pool entries")

    def admit_guest(self, address: str) -> None:
        """Count a new guest from `address`; `too_many_guests` past the limit."""
        count_creation(self.guests, address, "too_many_guests", "new guests")

    def admit_account(self, address: str) -> None:
        """Count a new account from `address`; `too_many_accounts` past the limit."""
        count_creation(self.accounts, address, "too_many_accounts", "new accounts")

    @classmethod
    def from_settings(cls, settings: Settings) -> Throttles:
        """Limits as configured by the `SEADRAGONS_*_LIMITS*` settings."""
        store = make_storage(settings.shared_redis_url)
        ns = namespace_for(settings.resolved_database_url())
        return cls(
            login=LoginThrottle(
                Limit(store, "login-user-addr", settings.login_limits_per_user_address, ns),
                Limit(store, "login-addr", settings.login_limits_per_address, ns),
            ),
            guests=Limit(store, "guests", settings.guest_limits_per_address, ns),
            accounts=Limit(store, "accounts", settings.account_limits_per_address, ns),
            chat=ChatLimiter(Limit(store, "chat", settings.chat_limits_per_user, ns, moving=True)),
            explain=Limit(store, "explain", settings.explain_limits_per_user, ns),
            hints=Limit(store, "hints", settings.hint_limits_per_user, ns),
            match_user=Limit(store, "match-user", settings.match_limits_per_user, ns),
            match_address=Limit(store, "match-addr", settings.match_limits_per_address, ns),
        )
