"""Small in-process caches of what never changes once committed: engine states by (game id,
version), replay documents by (game id, final version), hints by (game id, version). One of
each per session factory."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy.orm import Session, sessionmaker


class StateCache:
    """LRU of (game_id, version) -> State.

    Sound because a (game, version) pair names one snapshot forever: versions only grow, and the
    optimistic version check means exactly one state is ever committed for each. The engine never
    mutates a state it was given, so sharing them between requests is safe.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Any | None:
        """The cached state of `game_id` at `version`, or None."""
        with self._lock:
            state = self._items.get((game_id, version))
            if state is not None:
                self._items.move_to_end((game_id, version))
            return state

    def put(self, game_id: int, version: int, state: Any) -> None:
        """Remember a state, dropping the least recently used beyond `size`."""
        with self._lock:
            self._items[(game_id, version)] = state
            self._items.move_to_end((game_id, version))
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (tests use it to force loading from the database)."""
        with self._lock:
            self._items.clear()


def states_of(db: Session) -> StateCache:
    """The engine states cache of the session's factory: one per process and database, built
    with the app's context (app/db/session.make_sessionmaker), never a module-level registry."""
    return db.info["states"]


def replays_of(db: Session) -> StateCache:
    """The replay documents cache of the session's factory, likewise."""
    return db.info["replays"]


def hints_of(db: Session) -> StateCache:
    """The hints given, by the position they were asked in, of the session's factory."""
    return db.info["hints"]


def states_in(sessions: sessionmaker[Session]) -> StateCache:
    """The engine states cache of a session factory (what its sessions' `states_of` returns)."""
    return sessions.kw["info"]["states"]
