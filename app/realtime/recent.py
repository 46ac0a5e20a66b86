"""The replies to recent action ids, so a retried action is applied once: bounded in bytes.

A client that lost an `ack` sends the same action again with the same id; it must get the first
answer, not a second move. Only what identifies the action is kept (a 16-byte digest of the
version and the action's JSON), never the action itself, and only for users who hold a seat (the
caller checks that first), so a flood of refused or oversized actions cannot grow the memory.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from typing import Any

from app.engine import Action

ENTRY_OVERHEAD = 240  # bytes an entry costs beyond its reply text (key, digest, dict slots)


def digest(version: int, action: Action) -> bytes:
    """What makes two submissions "the same action": the version and the parsed action (its
    repr: a frozen value, so two parses of the same action print the same)."""
    return hashlib.blake2b(f"{version}\n{action!r}".encode(), digest_size=16).digest()


class RecentActions:
    """(game, user) -> action id -> (digest, reply): at most `per_user` ids per pair and about
    `max_bytes` in all; the least recently used pairs go first."""

    def __init__(self, max_bytes: int, per_user: int = 64) -> None:
        self.max_bytes = max_bytes
        self.per_user = per_user
        self.bytes = 0
        self._pairs: OrderedDict[tuple[int, int], OrderedDict[str, tuple[bytes, Any]]] = (
            OrderedDict()
        )
        self._sizes: dict[tuple[int, int, str], int] = {}

    def lookup(self, pair: tuple[int, int], msg_id: str) -> tuple[bytes, Any] | None:
        """The remembered (digest, reply future) for an id, if any."""
        ids = self._pairs.get(pair)
        if ids is None:
            return None
        self._pairs.move_to_end(pair)
        return ids.get(msg_id)

    def remember(self, pair: tuple[int, int], msg_id: str, key: bytes) -> asyncio.Future[str]:
        """Start remembering an id; the returned future is settled with the reply text."""
        reply: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        ids = self._pairs.setdefault(pair, OrderedDict())
        self._pairs.move_to_end(pair)
        self.forget(pair, msg_id)
        ids[msg_id] = (key, reply)
        self._account(pair, msg_id, ENTRY_OVERHEAD + len(msg_id))
        while len(ids) > self.per_user:
            old = next(iter(ids))
            self.forget(pair, old)
        self._evict()
        return reply

    def settle(self, pair: tuple[int, int], msg_id: str, text: str) -> None:
        """Account for the reply's size once it is known."""
        if msg_id in self._pairs.get(pair, {}):
            self._account(pair, msg_id, ENTRY_OVERHEAD + len(msg_id) + len(text))
            self._evict()

    def forget(self, pair: tuple[int, int], msg_id: str) -> None:
        """Drop one id (nothing is known to be applied: a retry must run)."""
        ids = self._pairs.get(pair)
        if ids is not None and ids.pop(msg_id, None) is not None:
            self.bytes -= self._sizes.pop((*pair, msg_id), 0)
            if not ids:
                del self._pairs[pair]

    def _account(self, pair: tuple[int, int], msg_id: str, size: int) -> None:
        k = (*pair, msg_id)
        self.bytes += size - self._sizes.get(k, 0)
        self._sizes[k] = size

    def _evict(self) -> None:
        while self.bytes > self.max_bytes and self._pairs:
            pair, ids = next(iter(self._pairs.items()))
            for msg_id in list(ids):
                self.forget(pair, msg_id)

    def __len__(self) -> int:
        return sum(len(ids) for ids in self._pairs.values())
