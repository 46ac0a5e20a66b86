"""What a player asks the pools for, and which waiting players make a table (pure: no I/O).

A choice is a player count (2 to 5, or 0 for any), the variant, the pace and rated or not.
Entries of one variant, pace and rated flag share a *scope*: an "any" entry can fill a table of
any size in its scope. The oldest ready entry anchors the next table; the others are taken by
age, or in a rated scope by nearness of rating to the anchor (pairing by rating when the pool
holds more players than the table needs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.shared.errors import ServiceError

PACES = ("live", "daily")
ANY = 0
SIZES = (2, 3, 4, 5)


@dataclass(frozen=True)
class Choice:
    """One pool: `players` 2..5 or ANY, the expansion or not, the pace, rated or not."""

    players: int
    expansion: bool
    pace: str
    rated: bool

    @classmethod
    def checked(cls, players: int, expansion: bool, pace: str, rated: bool) -> Choice:
        """The choice, or `invalid_choice` for a player count or pace the pools do not offer."""
        if players != ANY and players not in SIZES:
            raise ServiceError("invalid_choice", "players is 2 to 5, or any")
        if pace not in PACES:
            raise ServiceError("invalid_choice", "pace is live or daily")
        return cls(players, bool(expansion), pace, bool(rated))


@dataclass(frozen=True)
class Waiter:
    """A ready entry as the picking sees it."""

    entry_id: int
    user_id: int
    players: int
    rating: int | None
    name: str


def pick(
    waiters: Sequence[Waiter], rated: bool, clash: Callable[[str, Sequence[str]], bool]
) -> tuple[int, list[Waiter]] | None:
    """The next table (its size and its players, the anchor first) among `waiters` (oldest
    first), or None. One user sits once; `clash(name, names)`: two names that may not share
    a table (the same, or alike), skipped for a later table."""
    for anchor in waiters:
        sizes = tuple(reversed(SIZES)) if anchor.players == ANY else (anchor.players,)
        for size in sizes:
            seen = {anchor.user_id}
            others: list[Waiter] = []
            for w in waiters:
                if w.user_id not in seen and w.players in (ANY, size):
                    seen.add(w.user_id)
                    others.append(w)
            if len(others) + 1 < size:
                continue
            if rated and anchor.rating is not None:
                base = anchor.rating
                others.sort(key=lambda w: abs((w.rating if w.rating is not None else base) - base))
            table = [anchor]
            for w in others:
                if len(table) == size:
                    break
                if not clash(w.name, [t.name for t in table]):
                    table.append(w)
            if len(table) == size:
                return size, table
    return None
