"""A small in-process cache of engine states, keyed by (game id, version), one per database."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any

from sqlalchemy import Engine


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


# One cache per Engine: two apps on two databases (tests, SQLite and Postgres) never share states.
_caches: weakref.WeakKeyDictionary[Engine, StateCache] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


def cache_for(engine: Engine) -> StateCache:
    """The state cache belonging to `engine`'s database."""
    with _caches_lock:
        cache = _caches.get(engine)
        if cache is None:
            cache = _caches[engine] = StateCache()
        return cache
