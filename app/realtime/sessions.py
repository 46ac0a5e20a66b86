"""Open sockets by session: closing them when their session ends, with or without the bus.

A sign-out reaches the sockets three ways, fastest first: this instance's own sockets at once
(the after-commit hook), other instances' through a `revoked` bus message, and, should that be
lost (the bus away or its subscription down), the sweep: every `recheck_s` the sessions of all
open sockets are checked in one query and the ended ones closed. So a sign-out takes effect
everywhere within `recheck_s` plus one query, bus or no bus. Actions and chat lines also re-check
their socket's session when neither they nor the sweep read it in the last `recheck_s` (so a
busy table's moves seldom read it at all).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from app.realtime.connection import Connection
from app.realtime.protocol import CLOSE_POLICY, error_frame
from app.shared.errors import ServiceError

log = logging.getLogger(__name__)

RECHECK_S = 5.0  # a socket's session is re-read at most this often, and swept this often

# Runs a blocking storage call in a worker thread (anyio's to_thread.run_sync, or inline).
Runner = Callable[..., Awaitable[Any]]


class SessionIndex:
    """Open sockets of this instance by the hash of their session."""

    def __init__(
        self,
        store: Any,
        run: Runner,
        *,
        recheck_s: float = RECHECK_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.run = run
        self.recheck_s = recheck_s
        self.clock = clock
        self.by_session: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        """Index an open socket by its session."""
        token_hash = conn.viewer.token_hash
        if token_hash:
            self.by_session.setdefault(token_hash, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        """Forget a closed socket."""
        token_hash = conn.viewer.token_hash or ""
        conns = self.by_session.get(token_hash)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_session[token_hash]

    def close(self, token_hashes: Iterable[str]) -> int:
        """Close the sockets of these sessions here: say why, then close (1008); how many."""
        closed = 0
        for token_hash in token_hashes:
            for conn in list(self.by_session.pop(str(token_hash), ())):
                conn.send(error_frame("not_signed_in", "you signed out: this socket closes"))
                conn.close_after_queue(CLOSE_POLICY)
                closed += 1
        return closed

    async def still_valid(self, conn: Connection) -> bool:
        """The socket's session is still valid (read again at most every `recheck_s`)."""
        now = self.clock()
        if now - conn.session_checked_at < self.recheck_s:
            return True
        try:
            await self.run(self.store.check_session, conn.viewer)
        except ServiceError:
            return False
        conn.session_checked_at = now
        return True

    async def sweep(self) -> int:
        """Close the sockets whose session ended (one query for all); how many were closed."""
        hashes = list(self.by_session)
        if not hashes:
            return 0
        asked_at = self.clock()
        live = await self.run(self.store.live_sessions, hashes)
        # Valid as of the question: their sockets' actions need not read them again so soon.
        for token_hash in live:
            for conn in self.by_session.get(token_hash, ()):
                conn.session_checked_at = max(conn.session_checked_at, asked_at)
        ended = [h for h in hashes if h not in live]
        if ended:
            log.info("closing the sockets of %d ended sessions", len(ended))
        return self.close(ended)
